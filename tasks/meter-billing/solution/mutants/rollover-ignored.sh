#!/usr/bin/env bash
# Lossy shortcut: treats every register decrease as a reset, ignoring the declared rollover maximum.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ('dlt = dlt + roll if roll is not None else 0.0',
     'dlt = 0.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
