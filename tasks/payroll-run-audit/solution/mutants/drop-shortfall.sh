#!/usr/bin/env bash
# Unhandled edge case: pays 0.00 when deductions exceed pay but drops the shortfall instead of carrying it forward.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/deductions.py"
s = open(p).read()
for old, new in [
    ('        return ZERO, -net\n', '        return ZERO, ZERO\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
