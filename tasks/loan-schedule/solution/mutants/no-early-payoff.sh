#!/usr/bin/env bash
# Unhandled edge case: keeps charging instalments after extra payments have cleared the balance.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loan_core.py"
s = open(p).read()
for old, new in [
    ('last = k == n or bal - principal <= balloon',
     'last = k == n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
