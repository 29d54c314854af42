#!/usr/bin/env bash
# Misread rule: the audit gives every gross difference the reason ROUNDING, also for salaried employees (PRORATION).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/audit.py"
s = open(p).read()
for old, new in [
    ('        return "PRORATION" if emp["pay_type"] == "salaried" else "ROUNDING"\n', '        return "ROUNDING"\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
