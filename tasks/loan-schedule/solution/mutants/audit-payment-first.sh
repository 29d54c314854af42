#!/usr/bin/env bash
# Misread rule: the audit checks payment and balance before interest and principal, so a wrong principal is reported as a wrong payment.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/audit.py"
s = open(p).read()
for old, new in [
    ('CHECKED = (("date", "WRONG_DATE"), ("interest", "WRONG_INTEREST"), ("principal", "WRONG_PRINCIPAL"),\n           ("extra", "WRONG_EXTRA"), ("payment", "WRONG_PAYMENT"), ("balance", "WRONG_BALANCE"))',
     'CHECKED = (("date", "WRONG_DATE"), ("payment", "WRONG_PAYMENT"), ("balance", "WRONG_BALANCE"),\n           ("interest", "WRONG_INTEREST"), ("principal", "WRONG_PRINCIPAL"), ("extra", "WRONG_EXTRA"))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
