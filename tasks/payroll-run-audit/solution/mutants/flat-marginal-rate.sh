#!/usr/bin/env bash
# Misread rule: charges the rate of the highest bracket reached on the whole annual pay instead of on each bracket's part.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/deductions.py"
s = open(p).read()
for old, new in [
    ('        tax += (top - lo) * D(rate)\n', '        tax = annual * D(rate)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
