# Which of the numpy names in bench/numpy_names.txt resolve: run it under tlens
# (`build/tlens run bench/numpy_probe.py`) or CPython for comparison; it prints each missing name
# and the count.
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
names = []
with open(os.path.join(here, "numpy_names.txt")) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            names.extend(line.split())
missing = []
for full in names:
    obj = np
    ok = True
    for part in full.split("."):
        try:
            obj = getattr(obj, part)
        except Exception:
            ok = False
            break
    if not ok:
        missing.append(full)
for m in missing:
    print("missing", m)
print("resolved %d of %d" % (len(names) - len(missing), len(names)))
