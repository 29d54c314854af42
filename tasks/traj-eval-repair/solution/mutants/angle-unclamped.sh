#!/usr/bin/env bash
# Unhandled edge case: takes acos of (trace - 1) / 2 without clamping it to [-1, 1], so a rotation error of exactly zero (orientation taken from the ground truth) can raise a math domain error.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/trajkit/geometry.py"
s = open(p).read()
for old, new in [
    ('    return math.acos(max(-1.0, min(1.0, c)))\n',
     '    return math.acos(c)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
