#!/usr/bin/env python3
"""tools/check_layering.py on a small tree with one violation of each kind (fixture/): its output
must be expected.txt, line for line, and its exit status 1. Shows that the check can fail."""
import difflib
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
checker = os.path.join(here, "..", "..", "tools", "check_layering.py")
fixture = os.path.join(here, "fixture")
run = subprocess.run([sys.executable, checker, "--root", fixture, "--rules", os.path.join(fixture, "rules.md")],
                     capture_output=True, text=True)
with open(os.path.join(here, "expected.txt"), encoding="utf-8") as f:
    expected = f.read()
if run.stdout != expected or run.returncode != 1:
    sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), run.stdout.splitlines(True),
                                               "expected.txt", "check_layering.py output"))
    print("exit status %d (expected 1)%s" % (run.returncode, ("\n" + run.stderr) if run.stderr else ""))
    sys.exit(1)
print("layering fixture: %d violations reported as expected" % (len(expected.splitlines()) - 1))
