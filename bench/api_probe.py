# Which of the API names in bench/api_names.txt resolve: run it under tlens
# (`build/tlens run bench/api_probe.py`; it prints each missing name and the count).
import os
import tensorflow as tf

here = os.path.dirname(os.path.abspath(__file__))
names = []
with open(os.path.join(here, "api_names.txt")) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            names.append(line)
missing = []
for full in names:
    obj = tf
    ok = True
    for part in full.split(".")[1:]:
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
