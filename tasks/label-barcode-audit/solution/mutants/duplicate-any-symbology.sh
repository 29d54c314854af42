#!/usr/bin/env bash
# Misread rule: flags a repeated EAN-13 booking as a duplicate too, though EAN codes name products, not parcels.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/batch.py"
s = open(p).read()
for old, new in [
    ('            elif key[0] == "code128" and key in seen:\n', '            elif key in seen:\n'),
    ('            if key[0] == "code128":\n                seen.add(key)\n', '            seen.add(key)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
