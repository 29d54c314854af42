#!/usr/bin/env bash
# Lossy shortcut: regional extent as the plain share of cells, without cos(latitude) area weights.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('wts = {c: math.cos(math.radians(c[0])) for c in mem}',
     'wts = {c: 1.0 for c in mem}'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
