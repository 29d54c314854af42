#!/usr/bin/env bash
# Misread rule: after an interest-only period the instalment is computed over the whole term N instead of the N − M instalments left.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/schedule.py"
s = open(p).read()
for old, new in [
    ('            instalment = payment(balance, rate, n - k + 1, balloon)',
     '            instalment = payment(balance, rate, n - (k - 1 if changed else 0), balloon)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
