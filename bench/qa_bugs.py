#!/usr/bin/env python3
"""Question-and-answer shape bugs: does `tlens check` report each where the run fails?

bench/qa_bugs/ holds small programs written here after the shape and dtype errors people most
often ask about (Keras targets not one-hot, `return_sequences` left on, images without a channel
axis, a single sample to predict(), `input_dim` off by one, feeds of the wrong shape, transposed
weights, a bias of the wrong size, numpy's `dot` of misaligned arrays, datasets of features and
labels of different lengths, ...). Each marks the line where the run fails with `# BUG` (or
`# BUG (known miss: why)` for one the analysis does not find yet), or says `# NOT A BUG: why`
where the program runs in TensorFlow (and no error may be reported). A bug is found when `tlens
check` reports an error on its line. Prints a table and totals; with --strict, exits 1 when a bug
not marked as a known miss is missed, a known miss is found (update its mark), or an error is
reported in a program without a bug.

    python3 bench/qa_bugs.py --tlens build/tlens [--strict] [--dir bench/qa_bugs]
"""
import argparse
import os
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlens", required=True)
    ap.add_argument("--dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "qa_bugs"))
    ap.add_argument("--strict", action="store_true", help="exit 1 on a miss or a false error")
    args = ap.parse_args()
    tlens = os.path.abspath(args.tlens)
    found = missed = false_errors = unexpected = 0
    times = []
    for name in sorted(f for f in os.listdir(args.dir) if f.endswith(".py")):
        path = os.path.join(args.dir, name)
        with open(path) as fh:
            lines = fh.read().split("\n")
        bugs = [i + 1 for i, l in enumerate(lines) if re.search(r"# BUG( \(known miss: .*\))?$", l.rstrip())]
        known_miss = any("# BUG (known miss:" in l for l in lines)
        start = time.monotonic()
        out = subprocess.run([tlens, "check", name], cwd=args.dir, capture_output=True, text=True, timeout=120).stdout
        times.append(time.monotonic() - start)
        # An error's line, and the lines of its notes (a Session.run's error is reported at the
        # node that fails, with the run that raises it as a note).
        errors, at = {}, {}
        current = None
        for m in re.finditer(r"^%s:(\d+):\d+: (error|note|warning|info\w*): (.*)$" % re.escape(name), out, re.M):
            line, kind, msg = int(m.group(1)), m.group(2), m.group(3)
            if kind == "error":
                current = msg
                errors.setdefault(line, msg)
                at.setdefault(line, msg)
            elif kind == "note" and current is not None:
                at.setdefault(line, current)
            else:
                current = None
        if bugs:
            hit = [b for b in bugs if b in at]
            ok = len(hit) == len(bugs)
            found += ok
            missed += not ok
            unexpected += ok == known_miss
            first = at.get(bugs[0]) or (next(iter(errors.values())) if errors else "")
            status = ("found" if ok else "MISSED") + (" (known miss)" if known_miss else "")
            print("%-28s %-6s line %-4d %s" % (name, status, bugs[0], first[:110]))
        else:
            bad = bool(errors)
            false_errors += bad
            print("%-28s %-6s %s" % (name, "FALSE" if bad else "clean", "; ".join(errors.values())[:120]))
    times.sort()
    print("found at the line: %d of %d; false errors on programs that run: %d; median check time: %.0f ms"
          % (found, found + missed, false_errors, 1000 * times[len(times) // 2] if times else 0))
    return 1 if args.strict and (unexpected or false_errors) else 0


if __name__ == "__main__":
    sys.exit(main())
