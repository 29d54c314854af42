#!/usr/bin/env bash
# Misread rule: a payment naming several invoices pays them in invoice-id order, not by due date.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/reconcile.py"
s = open(p).read()
for old, new in [
    ('refs = sorted((inv[k] for k in ids if inv[k]["open"] > 0), key=lambda i: (i["due"], i["id"]))',
     'refs = sorted((inv[k] for k in ids if inv[k]["open"] > 0), key=lambda i: i["id"])'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
