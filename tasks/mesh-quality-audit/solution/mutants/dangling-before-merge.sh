#!/usr/bin/env bash
# Off-by-one: counts dangling vertices before merging, so an unreferenced duplicate of a used vertex is dangling too.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshtool.py"
s = open(p).read()
for old, new in [
    ('''        "dangling": len(pts) - len(referenced),''',
     '''        "dangling": len(mesh.points) - len({v for t in mesh.triangles for v in t}),'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
