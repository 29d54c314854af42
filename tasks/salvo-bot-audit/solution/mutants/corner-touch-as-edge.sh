#!/usr/bin/env bash
# Misread rule: touch = corner keeps ships apart only along edges, as touch = edge (diagonal contact allowed).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/board.py'
s = open(p).read()
for old, new in [
    ('near = all_neighbours if rules.touch == "corner" else edge_neighbours',
     'near = edge_neighbours'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
