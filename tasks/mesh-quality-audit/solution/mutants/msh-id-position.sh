#!/usr/bin/env bash
# Off-by-one: takes an MSH node id as its 1-based position in the node list, right only for contiguous ids in file order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/meshio.py"
s = open(p).read()
for old, new in [
    ('        tris.append(tuple(index[r] for r in ref))',
     '        tris.append(tuple(r - 1 for r in ref))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
