#!/usr/bin/env bash
# Misread rule: a hyperbolic orbit is reported with the period of abs(a) instead of null.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/elements.py"
s = open(p).read()
for old, new in [
    ('"period": period_of(alpha, mu) if bound else None,',
     '"period": period_of(abs(alpha), mu),'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
