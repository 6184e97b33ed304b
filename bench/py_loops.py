#!/usr/bin/env python3
"""The interpreter's cost per step on pure-Python loops: `tlens run` against CPython, same run.

Six loop shapes (integer arithmetic in nested loops, list appends and iteration, dict stores and
lookups with string keys, calls of a small function, method calls and attribute reads/writes on
an object, a while loop with a branch), each timed inside the program with time.process_time()
(CPU time of the process, so the figure is robust to the load of a shared machine). The two
interpreters run alternately, --runs times each; medians are reported per shape with the ratio
tlens / CPython (lower is better; 1.0 is CPython's speed).

    /usr/bin/python3 bench/py_loops.py [--tlens build/tlens] [--baseline OTHER_TLENS]
                                       [--python /usr/bin/python3] [--runs 5] [--scale 1.0]

With --baseline (another build of tlens), its medians and the ratio new/baseline are printed too.
Standard library only.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

PROGRAM = r'''
import time
SCALE = %(scale)r

def arith(n):
    s = 0
    for i in range(n):
        for j in range(10):
            s = s + i * j - (j %% 3)
    return s

def lists(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    t = 0
    for x in out:
        t += x
    return t

def dicts(n):
    d = {}
    for i in range(n):
        d["k" + str(i %% 100)] = i
    t = 0
    for i in range(n):
        t += d["k" + str(i %% 100)]
    return t

def add(a, b):
    return a + b

def calls(n):
    t = 0
    for i in range(n):
        t = add(t, i)
    return t

class Point:
    def __init__(self, x):
        self.x = x
        self.y = 0

    def step(self):
        self.y = self.y + self.x

def attrs(n):
    p = Point(3)
    for i in range(n):
        p.step()
        p.x = p.x + 1
    return p.y

def whiles(n):
    i = 0
    k = 0
    while i < n:
        if i %% 2 == 0:
            k += 1
        i += 1
    return k

for name, fn, n in [("arith", arith, 20000), ("lists", lists, 100000), ("dicts", dicts, 50000),
                    ("calls", calls, 100000), ("attrs", attrs, 50000), ("whiles", whiles, 100000)]:
    n = max(1, int(n * SCALE))
    t0 = time.process_time()
    r = fn(n)
    print(name, r, (time.process_time() - t0) * 1000.0)
'''


def run(cmd, path):
    out = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("py_loops: %s failed:\n%s" % (" ".join(cmd), out.stderr[-2000:]))
    res = {}
    for line in out.stdout.splitlines():
        name, value, ms = line.split()
        res[name] = (value, float(ms))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tlens", default="build/tlens")
    ap.add_argument("--baseline")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    runners = [("tlens", [a.tlens, "run"])]
    if a.baseline:
        runners.append(("baseline", [a.baseline, "run"]))
    runners.append(("cpython", [a.python]))
    times = {name: {} for name, _ in runners}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "loops.py")
        with open(path, "w") as f:
            f.write(PROGRAM % {"scale": a.scale})
        for _ in range(a.runs):
            results = {}
            for name, cmd in runners:
                results[name] = run(cmd, path)
                for shape, (_, ms) in results[name].items():
                    times[name].setdefault(shape, []).append(ms)
            ref = results["cpython"]
            for name, r in results.items():
                for shape, (value, _) in r.items():
                    if value != ref[shape][0]:
                        sys.exit("py_loops: %s computes %s for %s, CPython %s" % (name, value, shape, ref[shape][0]))
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print("py_loops: medians of %d runs, CPU ms (time.process_time), load average %.1f" % (a.runs, load))
    head = "%-8s %10s %10s %9s" % ("shape", "tlens", "cpython", "ratio")
    if a.baseline:
        head += " %10s %9s %9s" % ("baseline", "base/cpy", "new/base")
    print(head)
    med = {name: {s: statistics.median(v) for s, v in t.items()} for name, t in times.items()}
    for shape in med["cpython"]:
        t, c = med["tlens"][shape], med["cpython"][shape]
        line = "%-8s %10.1f %10.1f %8.2fx" % (shape, t, c, t / c)
        if a.baseline:
            b = med["baseline"][shape]
            line += " %10.1f %8.2fx %8.2f" % (b, b / c, t / b)
        print(line)
    tot = {name: sum(m.values()) for name, m in med.items()}
    line = "%-8s %10.1f %10.1f %8.2fx" % ("total", tot["tlens"], tot["cpython"], tot["tlens"] / tot["cpython"])
    if a.baseline:
        line += " %10.1f %8.2fx %8.2f" % (tot["baseline"], tot["baseline"] / tot["cpython"], tot["tlens"] / tot["baseline"])
    print(line)


if __name__ == "__main__":
    main()
