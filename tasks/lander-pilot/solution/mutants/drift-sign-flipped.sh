#!/usr/bin/env bash
# Misread rule: calls a miss wind drift when it lies upwind of the pad (pad_x - x against the wind) instead of downwind.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/audit.py'
s = open(p).read()
for old, new in [
    ('drift = td["x"] - float(h["pad_x"])',
     'drift = float(h["pad_x"]) - td["x"]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
