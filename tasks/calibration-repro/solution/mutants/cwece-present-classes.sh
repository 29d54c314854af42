#!/usr/bin/env bash
# Unhandled edge case: averages the classwise ECE over the classes that occur as labels instead of over all K classes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/metrics.py"
s = open(p).read()
for old, new in [
    ("    for c in range(k):\n        err, _, _, _ = _binned_error(", "    present = sorted(set(rows.labels))\n    for c in present:\n        err, _, _, _ = _binned_error("),
    ("    cw /= k\n", "    cw /= len(present)\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
