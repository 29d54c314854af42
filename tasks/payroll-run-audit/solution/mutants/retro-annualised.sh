#!/usr/bin/env bash
# Misread rule: taxes retro pay with the regular pay through the annualised brackets instead of at the flat supplemental rate.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/deductions.py"
s = open(p).read()
for old, new in [
    ('    annual = max(ZERO, (taxable - retro) * period.per_year)\n', '    annual = max(ZERO, taxable * period.per_year)\n'),
    ('    retro_tax = cents(retro * D(cfg["supplemental_rate"]))\n', '    retro_tax = 0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
