#!/usr/bin/env python3
"""Times the programs of bench/tfspeed/ under one or more `tlens` binaries, in alternation, and
prints the cost of one step (iteration) of each: the slope of the process CPU time between two
step counts, so import, graph building and tracing are not counted. CPU time (user + system of
the child, all its threads) does not depend on other processes' load.

    python3 bench/tfspeed.py [--trials N] [--quick] [--pin] BIN [BIN...]

e.g. `python3 bench/tfspeed.py /tmp/tlens-main build/tlens` for a before/after table; the ratio
column is each binary's time over the first one's. --pin runs every program on CPU 0 only
(taskset): the thread pool's threads then share one core, and steps of a few milliseconds are
not skewed by how busy the other cores are (without it, the MLP rows moved by +-20% between runs
on a loaded 2-core machine).
"""
import argparse
import os
import resource
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tfspeed")

# (label, program, extra args, low count, high count)
CASES = [
    ("tf.add(a, b) per iteration, us", "ops_eager.py", ["tfadd"], 2000, 42000, 1e6),
    ("a * b + c per iteration, us", "ops_eager.py", ["operator"], 2000, 42000, 1e6),
    ("relu(matmul(x, w)) 2x2 per iteration, us", "ops_eager.py", ["matmul"], 2000, 42000, 1e6),
    ("MLP step, TF1 Session, ms", "mlp_session.py", [], 5, 45, 1e3),
    ("MLP step, tf.function, ms", "mlp_function.py", [], 5, 45, 1e3),
    ("MLP step, eager, ms", "mlp_function.py", ["eager"], 5, 45, 1e3),
    ("CNN step, TF1 Session, ms", "cnn_session.py", [], 2, 8, 1e3),
    ("CNN step, tf.function, ms", "cnn_function.py", [], 2, 8, 1e3),
    ("CNN step, eager, ms", "cnn_function.py", ["eager"], 2, 8, 1e3),
    ("static LSTM step, TF1 Session, ms", "lstm_session.py", [], 2, 8, 1e3),
]


def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="a quarter of the step counts")
    ap.add_argument("--pin", action="store_true", help="run the programs on CPU 0 only (taskset -c 0)")
    args = ap.parse_args()
    print("%-44s" % "per step (median slope)" + "".join("%14s" % os.path.basename(b)[:13] for b in args.bins) +
          ("   ratios to the first" if len(args.bins) > 1 else ""))
    for label, prog, extra, lo, hi, scale in CASES:
        if args.quick:
            hi = max(lo + 2, lo + (hi - lo) // 4)
        path = os.path.join(HERE, prog)
        slopes = {b: [] for b in args.bins}
        pin = ["taskset", "-c", "0"] if args.pin else []
        for _ in range(args.trials):
            for b in args.bins:
                t_lo = cpu_of(pin + [b, "run", path, str(lo)] + extra)
                t_hi = cpu_of(pin + [b, "run", path, str(hi)] + extra)
                slopes[b].append((t_hi - t_lo) / (hi - lo))
        med = [sorted(slopes[b])[len(slopes[b]) // 2] * scale for b in args.bins]
        line = "%-44s" % label + "".join("%14.3f" % m for m in med)
        if len(med) > 1:
            line += "   " + " ".join("%.2fx" % (m / med[0]) for m in med[1:])
        print(line, flush=True)


if __name__ == "__main__":
    main()
