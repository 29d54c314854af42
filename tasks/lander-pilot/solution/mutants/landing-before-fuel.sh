#!/usr/bin/env bash
# Misread rule: checks the crash's speeds before fuel exhaustion, so a lander that ran dry is filed as HARD_LANDING.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/audit.py'
s = open(p).read()
for old, new in [
    ('        for rec in recs[:t]:\n            if rec["fuel"] <= 0:\n                return "FUEL_EXHAUSTED", rec["step"]\n',
     '        if abs(td["vy"]) > float(h["safe_vy"]):\n            return "HARD_LANDING", td["step"]\n        for rec in recs[:t]:\n            if rec["fuel"] <= 0:\n                return "FUEL_EXHAUSTED", rec["step"]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
