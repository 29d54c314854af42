#!/usr/bin/env bash
# Off-by-one: the interest-only period ends one instalment early.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/schedule.py"
s = open(p).read()
for old, new in [
    ('        principal = ZERO if k <= io else instalment - interest',
     '        principal = ZERO if k < io else instalment - interest'),
    ('        if k > io and (instalment is None or changed):',
     '        if k >= io and (instalment is None or changed):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
