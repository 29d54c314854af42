#!/usr/bin/env bash
# Sign slip: the hyperbolic branch of S(z) is written (s - sinh s)/s^3.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/stumpff.py"
s = open(p).read()
for old, new in [
    ('(math.sinh(s) - s) / (s * s * s)',
     '(s - math.sinh(s)) / (s * s * s)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
