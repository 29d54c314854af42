#!/usr/bin/env bash
# Unhandled edge case: keeps the wind estimate's clamp at [0, 2], so a wind towards -x is never compensated and those flights miss or crash.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/wind.py'
s = open(p).read()
for old, new in [
    ('clamp(self.value, -WIND_LIMIT, WIND_LIMIT)',
     'clamp(self.value, 0.0, WIND_LIMIT)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
