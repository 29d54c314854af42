#!/usr/bin/env bash
# Lossy shortcut: a cautious slow descent that burns through a tight fuel budget.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pilot.py"
s = open(p).read()
for old, new in [
    ('vy_des = -clamp(0.25 * y + 0.6, 0.9, 9.0)',
     'vy_des = -clamp(0.08 * y + 0.6, 0.9, 2.5)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
