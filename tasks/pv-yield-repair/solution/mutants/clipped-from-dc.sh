#!/usr/bin/env bash
# Misread rule: counts clipped energy on the DC side, (P_dc - P_ac,max) instead of (P_dc x efficiency - P_ac,max).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/power.py"
s = open(p).read()
for old, new in [
    ('    return min(raw, plant.ac_limit_kw), max(raw - plant.ac_limit_kw, 0.0)',
     '    return min(raw, plant.ac_limit_kw), max(pdc - plant.ac_limit_kw, 0.0)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
