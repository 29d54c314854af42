#!/usr/bin/env bash
# Unhandled edge case: measures angles on the triangles as read, before merging, so a collapsed (zero-width) triangle counts as a sliver.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshtool.py"
s = open(p).read()
for old, new in [
    ('''        m = geometry.min_angle(pts[a], pts[b], pts[c])
        mins.append(m)
        bins[geometry.angle_bin(m)] += 1
''', '''    for t in mesh.triangles:
        m = geometry.min_angle(*(mesh.points[v] for v in t))
        mins.append(m)
        bins[geometry.angle_bin(m)] += 1
'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
