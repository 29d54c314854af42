#!/usr/bin/env bash
# Misread rule: counts holes as boundary loops minus one, as if every mesh were one piece.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshtool.py"
s = open(p).read()
for old, new in [
    ('''    if st["boundary_loops"] - st["components"] != declared_holes:''',
     '''    if st["boundary_loops"] - 1 != declared_holes:'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
