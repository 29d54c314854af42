#!/usr/bin/env bash
# Sign slip: the pressure is corrected upwards from the sensor to the hub.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/density.py"
s = open(p).read()
for old, new in [
    ('math.exp(-G * (hub_m - sensor_m) / (R_DRY * t))',
     'math.exp(G * (hub_m - sensor_m) / (R_DRY * t))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
