#!/usr/bin/env bash
# Misread rule: joins triangles into components only through a shared edge, so two triangles touching at one vertex (a bowtie) are two components.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/topology.py"
s = open(p).read()
for old, new in [
    ('''        dsu.union(a, b)
        dsu.union(b, c)
        used.update((a, b, c))
    return len({dsu.find(v) for v in used})''',
     '''        used.update((a, b, c))
    return len(used) and _edge_components(triangles)


def _edge_components(triangles):
    dsu = _DSU(len(triangles))
    first = {}
    for k, (a, b, c) in enumerate(triangles):
        for u, v in ((a, b), (b, c), (c, a)):
            e = (u, v) if u < v else (v, u)
            if e in first:
                dsu.union(first[e], k)
            else:
                first[e] = k
    return len({dsu.find(k) for k in range(len(triangles))})'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
