#!/usr/bin/env bash
# Misread rule: the annuity subtracts the balloon from the balance undiscounted instead of B/(1+r)^n.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/annuity.py"
s = open(p).read()
for old, new in [
    ('    return cents((balance - balloon / f) * r * f / (f - 1))',
     '    return cents((balance - balloon) * r * f / (f - 1))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
