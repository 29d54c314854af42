#!/usr/bin/env bash
# Misread rule: takes an edge used an odd number of times as a boundary edge, so a non-manifold edge used three times counts as boundary.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/topology.py"
s = open(p).read()
for old, new in [
    ('return [e for e, k in counts.items() if k == 1]',
     'return [e for e, k in counts.items() if k % 2 == 1]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
