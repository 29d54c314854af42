#!/usr/bin/env bash
# Misread rule: reads the region map column by column (cell r, c takes the label at line c, position r).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/layout.py"
s = open(p).read()
for old, new in [
    ('            lab = rows[r][c]\n',
     '            lab = rows[c][r]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
