#!/usr/bin/env bash
# Unit slip: BORA power is always read as kW, the unit_power declaration is ignored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/scada.py"
s = open(p).read()
for old, new in [
    ('                    scale = POWER_SCALE[body.split("=", 1)[1]]\n',
     '                    scale = 1.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
