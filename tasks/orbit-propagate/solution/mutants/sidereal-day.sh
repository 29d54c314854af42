#!/usr/bin/env bash
# Misread rule: a "day" time unit is the sidereal day (86164.0905 s) instead of the civil day of 86400 SI seconds.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/units.py"
s = open(p).read()
for old, new in [
    ('"day": 86400.0}',
     '"day": 86164.0905}'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
