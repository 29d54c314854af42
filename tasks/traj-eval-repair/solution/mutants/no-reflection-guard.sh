#!/usr/bin/env bash
# Unhandled edge case: takes R = U V^T without the det(U)det(V) sign correction, so a near-planar floor-robot run can be aligned by a reflection.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/trajkit/align.py"
s = open(p).read()
for old, new in [
    ('    if det3(u) * det3(v) < 0:\n',
     '    if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
