#!/usr/bin/env bash
# Misread rule: treats a Code 128 code-set switch (CODE B, CODE C) as a one-character shift, falling back to the start's set after the next character.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/code128.py"
s = open(p).read()
for old, new in [
    ('    for v in data:\n        if cset == "C":\n',
     '    base = cset\n    for v in data:\n        was, cset = cset, base\n        if was == "C":\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
