#!/usr/bin/env bash
# Unhandled edge case: reads each row left to right only, so a label scanned upside down (rotated 180 degrees) is unreadable.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/scanline.py"
s = open(p).read()
for old, new in [
    ('        for rotated, line in ((False, row), (True, row[::-1])):\n',
     '        for rotated, line in ((False, row),):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
