#!/usr/bin/env bash
# Unhandled edge case: an extra payment that clears the balance does not end the schedule, a zero-payment row follows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/schedule.py"
s = open(p).read()
for old, new in [
    ('        if final or balance == 0:',
     '        if final:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
