#!/usr/bin/env bash
# Misread rule: caps the pension contribution at the annual cap for this period alone, ignoring what was already contributed this year.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/payroll/deductions.py"
s = open(p).read()
for old, new in [
    ('    room = max(ZERO, cap - ytd["pension"])\n', '    room = cap\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
