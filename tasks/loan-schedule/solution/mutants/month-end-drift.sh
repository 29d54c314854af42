#!/usr/bin/env bash
# Unhandled edge case: each due date is one month after the previous due date, so a 31st drifts to the 28th after February.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/dates.py"
s = open(p).read()
for old, new in [
    ('    return add_months(first, k - 1, first.day)',
     '    d = first\n    for _ in range(k - 1):\n        d = add_months(d, 1, d.day)\n    return d'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
