#!/usr/bin/env bash
# Misread rule: keep-monthly keeps the oldest snapshot of each month (walks oldest first).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/retention.py"
s = open(p).read()
for old, new in [
    ('        for s in order:\n            if left <= 0:',
     '        for s in (order[::-1] if kind == "monthly" else order):\n            if left <= 0:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
