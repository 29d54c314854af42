#!/usr/bin/env bash
# Unhandled edge case: readings in the repeated local hour after a fall-back change are dropped as out of order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ('                u = d.replace(tzinfo=tz, fold=1).astimezone(timezone.utc)\n',
     '                pass\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
