#!/usr/bin/env bash
# Lossy shortcut: reads only the first three corners of an OFF face, so a quadrilateral loses its second triangle.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/meshio.py"
s = open(p).read()
for old, new in [
    ('''        elif n == 4:
            tris.append((idx[0], idx[1], idx[2]))
            tris.append((idx[0], idx[2], idx[3]))''',
     '''        elif n == 4:
            tris.append((idx[0], idx[1], idx[2]))'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
