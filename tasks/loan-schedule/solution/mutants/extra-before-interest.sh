#!/usr/bin/env bash
# Misread rule: an extra payment is taken off the balance before the instalment's interest instead of after the instalment.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/schedule.py"
s = open(p).read()
for old, new in [
    ('        interest = cents(balance * monthly(rate))\n',
     '        early = min(t["extras"].get(k, ZERO), balance)\n        balance -= early\n        interest = cents(balance * monthly(rate))\n'),
    ('        extra = ZERO if final else min(t["extras"].get(k, ZERO), balance - principal)\n        balance = balance - principal - extra\n',
     '        if final:\n            principal = min(principal, balance)\n        extra = early\n        balance = balance - principal\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
