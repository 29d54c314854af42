#!/usr/bin/env bash
# Off-by-one: weights the Code 128 data characters 0, 1, 2, ... in the check sum instead of 1, 2, 3, ...
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/code128.py"
s = open(p).read()
for old, new in [
    ('    return (values[0] + sum(k * v for k, v in enumerate(values[1:], 1))) % 103\n',
     '    return (values[0] + sum(k * v for k, v in enumerate(values[1:]))) % 103\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
