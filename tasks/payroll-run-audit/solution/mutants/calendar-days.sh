#!/usr/bin/env bash
# Misread rule: prorates a mid-period hire or termination by calendar days employed out of 14 instead of working days.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/earnings.py"
s = open(p).read()
for old, new in [
    ('        employed = working_days(period, first, last)\n        total = working_days(period, period.start, period.end)\n', '        employed = (last - first).days + 1\n        total = (period.end - period.start).days + 1\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
