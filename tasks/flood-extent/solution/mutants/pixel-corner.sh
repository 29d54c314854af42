#!/usr/bin/env bash
# Off-by-one: locates each pixel at its outer corner instead of its centre, so pixels along district edges change sides.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/geo.py"
s = open(p).read()
for old, new in [
    ('    x = gt[0] + (col + 0.5) * gt[1] + (row + 0.5) * gt[2]\n    y = gt[3] + (col + 0.5) * gt[4] + (row + 0.5) * gt[5]\n',
     '    x = gt[0] + col * gt[1] + row * gt[2]\n    y = gt[3] + col * gt[4] + row * gt[5]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
