#!/usr/bin/env bash
# Off-by-one: gives a silent pilot the step of its last answered record instead of the first unanswered step.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/audit.py'
s = open(p).read()
for old, new in [
    ('return "PILOT_SILENT", (recs[-1]["step"] + 1) if recs else 0',
     'return "PILOT_SILENT", recs[-1]["step"] if recs else 0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
