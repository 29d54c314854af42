#!/usr/bin/env bash
# Misread rule: branches on the open cell with the fewest candidates, so a MULTIPLE puzzle reports the first solution met, not the least.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/search.py"
s = open(p).read()
for old, new in [
    ('    for cell in puzzle.cells:\n        if len(cands[cell]) > 1:\n            return cell\n    return None\n',
     '    open_cells = [c for c in puzzle.cells if len(cands[c]) > 1]\n    return min(open_cells, key=lambda c: len(cands[c])) if open_cells else None\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
