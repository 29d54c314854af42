#!/usr/bin/env bash
# Misread rule: assigns days and time-of-use bands by UTC clock time instead of the meter's local time.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ('mid = (p + (q - p) / 2).astimezone(tz)',
     'mid = (p + (q - p) / 2).astimezone(timezone.utc)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
