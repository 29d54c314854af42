#!/usr/bin/env bash
# Unhandled edge case: no disturbance estimate, so a steady cross-wind pushes it off narrow pads.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pilot.py"
s = open(p).read()
for old, new in [
    ('            dist = clamp(dist, -2.0, 2.0)\n',
     '            dist = 0.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
