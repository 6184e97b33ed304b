#!/usr/bin/env python3
"""Scores tensorlens on a directory of real programs.

For every .py file under DIR: `tlens run` (in the program's own directory, as its author would run
it, with a timeout) and `tlens check --format json`. Prints one line per program (runs clean /
first error / timeout, and the number of check errors and warnings), then the totals.

    python3 bench/corpus.py [--tlens build/tlens] [--timeout 300] [--jobs 2] [--json OUT]
                            [--expect tests/corpus/expected.tsv [--clean-only]] [--only SUBSTRING] DIR

--expect FILE compares with the expected outcomes (one row per program, relative to DIR:
`file<TAB>expect<TAB>note`, expect being `clean`, `fails` or `upstream`): the exit status is 1
when a program expected to run clean does not. A program that runs clean but is not expected to
is reported as an improvement (update the file). Standard library only: no dependency.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

ROW_FIELDS = ("file", "expect", "note")


def first_error(stderr):
    """The line that says what went wrong: the exception line of a traceback, else the last line."""
    lines = [l for l in stderr.splitlines() if l.strip()]
    for line in reversed(lines):
        head = line.split(":", 1)[0].strip()
        if head and " " not in head and (head.endswith("Error") or head.endswith("Exception") or
                                         head in ("KeyboardInterrupt", "SystemExit", "Killed")):
            return line.strip()
    return lines[-1].strip() if lines else ""


def run_one(tlens, root, rel, timeout, python):
    path = os.path.join(root, rel)
    cwd = os.path.dirname(path) or "."
    env = dict(os.environ)
    env.setdefault("MPLBACKEND", "Agg")
    result = {"file": rel}
    start = time.monotonic()
    try:
        p = subprocess.run([tlens, "run", "--python", python, os.path.basename(path)], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
        result["run_status"] = p.returncode
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode == 0:
            result["run"] = "clean"
        elif p.returncode < 0:
            result["run"] = "crash"
            result["error"] = "killed by signal %d" % -p.returncode
        else:
            result["run"] = "error"
            result["error"] = first_error(err)
    except subprocess.TimeoutExpired:
        result["run"] = "timeout"
        result["error"] = "no end within %d s" % timeout
    result["run_s"] = round(time.monotonic() - start, 1)

    start = time.monotonic()
    try:
        p = subprocess.run([tlens, "check", "--format", "json", path], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        if p.returncode < 0:
            result["check"] = "crash"
        else:
            diags = json.loads(p.stdout.decode("utf-8", "replace") or "[]")
            result["check"] = "ok"
            result["check_errors"] = sum(1 for d in diags if d.get("severity") == "error")
            result["check_warnings"] = sum(1 for d in diags if d.get("severity") == "warning")
            result["check_first"] = next(("%d: %s" % (d["line"], d["message"]) for d in diags
                                          if d.get("severity") == "error"), "")
    except subprocess.TimeoutExpired:
        result["check"] = "timeout"
    except ValueError:
        result["check"] = "bad output"
    result["check_s"] = round(time.monotonic() - start, 1)
    return result


def read_expected(path):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 2 or parts[1] not in ("clean", "fails", "upstream"):
                sys.exit("%s:%d: expected 'file<TAB>clean|fails|upstream<TAB>note'" % (path, n))
            rows[parts[0]] = dict(zip(ROW_FIELDS, parts + [""] * (3 - len(parts))))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--tlens", default=os.path.join(os.path.dirname(__file__), "..", "build", "tlens"))
    ap.add_argument("--timeout", type=int, default=300)
    # Modules tensorlens does not model (pandas, matplotlib, ...) come from this Python: Debian's,
    # where the test packages are installed, when there is one.
    ap.add_argument("--python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--expect")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--clean-only", action="store_true",
                    help="with --expect: run only the programs expected to run clean (the test command's check)")
    args = ap.parse_args()
    tlens = os.path.abspath(args.tlens)
    root = os.path.abspath(args.dir)
    if not os.access(tlens, os.X_OK):
        sys.exit("corpus.py: no tlens binary at %s (build it first)" % tlens)

    programs = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, f), root)
                if not args.only or any(s in rel for s in args.only):
                    programs.append(rel)
    expected = read_expected(args.expect) if args.expect else {}
    if args.clean_only:
        if not expected:
            sys.exit("corpus.py: --clean-only needs --expect")
        programs = [p for p in programs if expected.get(p, {}).get("expect") == "clean"]

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_one, tlens, root, rel, args.timeout, args.python): rel for rel in programs}
        for fut in concurrent.futures.as_completed(futures):
            r = fut.result()
            results.append(r)
            checked = ("check %s" % r["check"]) if r["check"] != "ok" else \
                "check %d errors %d warnings" % (r["check_errors"], r["check_warnings"])
            line = "%-8s %6.1fs  %-26s  %s" % (r["run"], r["run_s"], checked, r["file"])
            if r.get("error"):
                line += "\n           " + r["error"][:200]
            print(line, flush=True)
    results.sort(key=lambda r: r["file"])

    counts = {}
    for r in results:
        counts[r["run"]] = counts.get(r["run"], 0) + 1
    total_errors = sum(r.get("check_errors", 0) for r in results)
    with_errors = sum(1 for r in results if r.get("check_errors", 0) > 0)
    print("\n%d programs: %s" % (len(results), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print("tlens check: %d errors in %d programs; %d check crashes or timeouts" %
          (total_errors, with_errors, sum(1 for r in results if r["check"] not in ("ok",))))

    status = 0
    if expected:
        regressions, improvements, unlisted = [], [], []
        for r in results:
            e = expected.get(r["file"])
            if e is None:
                unlisted.append(r["file"])
            elif e["expect"] == "clean" and r["run"] != "clean":
                regressions.append("%s: expected to run clean, got %s: %s" % (r["file"], r["run"], r.get("error", "")))
            elif e["expect"] != "clean" and r["run"] == "clean":
                improvements.append(r["file"])
            if r["check"] == "crash" or r["run"] == "crash":
                regressions.append("%s: the process crashed (%s)" % (r["file"], r.get("error", "check")))
        for f in improvements:
            print("improved: %s now runs clean (mark it 'clean' in %s)" % (f, args.expect))
        for f in unlisted:
            print("unlisted: %s has no row in %s" % (f, args.expect))
        listed = set(r["file"] for r in results)
        if not args.only and not args.clean_only:
            for f in sorted(set(expected) - listed):
                regressions.append("%s: listed in %s but not found under %s" % (f, args.expect, root))
        for line in regressions:
            print("REGRESSION: " + line)
        expected_clean = sum(1 for e in expected.values() if e["expect"] == "clean")
        print("expected clean: %d; regressions: %d" % (expected_clean, len(regressions)))
        status = 1 if regressions else 0
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
