#!/usr/bin/env bash
# Unhandled edge case: keeps the shipped log reader, which always drops the last record as the end record, so a killed recorder's touch-down is lost.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/flight/logs.py'
s = open(p).read()
for old, new in [
    ('    end = None\n    if body and body[-1].get("type") == "end":\n        end = body.pop()\n',
     "    end = body.pop() if body else None  # the recorder's end record\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 -B /app/pilot.py audit /app/logs /app/reports/flight-audit.csv
