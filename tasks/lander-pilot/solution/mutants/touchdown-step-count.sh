#!/usr/bin/env bash
# Off-by-one: counts dropouts in the 20 records before the touch-down record instead of the 20 ending with it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/audit.py'
s = open(p).read()
for old, new in [
    ('window = recs[max(0, t - DROPOUT_WINDOW + 1): t + 1]',
     'window = recs[max(0, t - DROPOUT_WINDOW): t]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
