#!/usr/bin/env bash
# Off-by-one: treats a touch-down exactly at the speed limits as a crash (strict < instead of <=).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/audit.py'
s = open(p).read()
for old, new in [
    ('soft = abs(td["vy"]) <= float(h["safe_vy"]) and abs(td["vx"]) <= float(h["safe_vx"])',
     'soft = abs(td["vy"]) < float(h["safe_vy"]) and abs(td["vx"]) < float(h["safe_vx"])'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
