#!/usr/bin/env bash
# Misread rule: swaps the EAN-13 parity patterns of leading digits 7 and 8 (LGLGLG and LGLGGL), so those labels read with the wrong first digit and fail their check.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/ean13.py"
s = open(p).read()
for old, new in [
    ('"LGLGLG": 7, "LGLGGL": 8', '"LGLGLG": 8, "LGLGGL": 7'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
