#!/usr/bin/env bash
# Misread rule: applies a payment naming several invoices in invoice-id order instead of (due date, invoice id).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/allocate.py"
s = open(p).read()
for old, new in [
    ('key=lambda i: (i["due"], i["id"]))\n            for inv', 'key=lambda i: i["id"])\n            for inv'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
