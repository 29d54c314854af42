#!/usr/bin/env bash
# Misread rule: the audit reports a wrong cage sum at the cage's first listed cell, not its first cell in reading order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/audit.py"
s = open(p).read()
for old, new in [
    ('                       if sum(grid[r][c] for r, c in cage.cells) != cage.total for x in cage.cells]',
     '                       if sum(grid[r][c] for r, c in cage.cells) != cage.total for x in cage.cells[:1]]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
