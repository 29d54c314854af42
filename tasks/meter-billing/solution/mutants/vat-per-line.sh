#!/usr/bin/env bash
# Lossy shortcut: rounds VAT per charge line and adds the rounded amounts instead of rounding VAT once on the bill's net charges.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("    vat = cents(net * period.vat_rate)\n", "    vat = sum((cents(l.amount * period.vat_rate) for l in lines), ZERO)\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
