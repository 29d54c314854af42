#!/usr/bin/env bash
# Off-by-one: numbers the turns from 0, so every reported turn is one too small.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        # A patch that no longer applies would leave the reference program: fail loudly instead.
        assert s.count(old) == 1, "mutant patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/audit.py", [('    turn, last_guess = 0, None\n', '    turn, last_guess = -1, None\n')])
PY
