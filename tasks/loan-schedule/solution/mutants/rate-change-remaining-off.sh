#!/usr/bin/env bash
# Off-by-one: a rate change re-amortises over N − k instalments, leaving out the current one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/schedule.py"
s = open(p).read()
for old, new in [
    ('            instalment = payment(balance, rate, n - k + 1, balloon)',
     '            instalment = payment(balance, rate, n - k + (0 if changed and k > io + 1 else 1), balloon)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
