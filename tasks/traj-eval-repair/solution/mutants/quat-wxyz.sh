#!/usr/bin/env bash
# Misread rule: reads the quaternion columns scalar-first (qw qx qy qz), the other common convention.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/trajkit/trajio.py"
s = open(p).read()
for old, new in [
    ('    qx, qy, qz, qw = v[4], v[5], v[6], v[7]\n',
     '    qw, qx, qy, qz = v[4], v[5], v[6], v[7]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
