#!/usr/bin/env bash
# Misread rule: request times are converted with the inverse factor (body unit over request unit).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/catalog.py"
s = open(p).read()
for old, new in [
    ('k = time_factor(unit, b.get("time_unit", "s"))',
     'k = time_factor(b.get("time_unit", "s"), unit)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
