#!/usr/bin/env bash
# Misread rule: takes the method's window half-width as a number of points instead of axis units (right only at one point per axis unit).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/baseline.py"
s = open(p).read()
for old, new in [
    ('    return [abs(v - center) <= half_width for v in x]',
     '    k = min(range(len(x)), key=lambda i: abs(x[i] - center))\n    n = int(half_width)\n    return [k - n <= i <= k + n for i in range(len(x))]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
