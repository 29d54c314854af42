#!/usr/bin/env bash
# Edge case: the Newton bracket starts from abs(dt), so negative times of flight are solved forwards.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/kepler.py"
s = open(p).read()
for old, new in [
    ('lo, hi = 0.0, sm * dt / r0',
     'lo, hi = 0.0, sm * abs(dt) / r0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
