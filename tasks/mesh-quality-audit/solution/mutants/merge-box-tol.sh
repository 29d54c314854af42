#!/usr/bin/env bash
# Misread rule: merges vertices whose x and y each differ by at most the tolerance (a square, up to sqrt 2 too far on a diagonal) instead of the Euclidean distance.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/topology.py"
s = open(p).read()
for old, new in [
    ('if (px - qx) ** 2 + (py - qy) ** 2 <= tol * tol:',
     'if abs(px - qx) <= tol and abs(py - qy) <= tol:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
