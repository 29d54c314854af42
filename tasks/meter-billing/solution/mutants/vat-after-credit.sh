#!/usr/bin/env bash
# Misread rule: charges VAT on the net charges less the export credit instead of before it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("    total = net + vat + credit\n", "    vat = cents((net + credit) * period.vat_rate)\n    total = net + vat + credit\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
