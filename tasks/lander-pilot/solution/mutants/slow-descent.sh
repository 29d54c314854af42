#!/usr/bin/env bash
# Lossy shortcut: keeps a cautious cruise descent capped at 3 m/s, which burns through the low-fuel budget.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/guidance.py'
s = open(p).read()
for old, new in [
    ('CRUISE_MAX = 9.0',
     'CRUISE_MAX = 3.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
