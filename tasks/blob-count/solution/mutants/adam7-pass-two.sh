#!/usr/bin/env bash
# Off-by-one: the second Adam7 pass starts at column 0, row 4 instead of column 4, row 0.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/png.py"
s = open(p).read()
for old, new in [
    ('ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8),', 'ADAM7 = [(0, 0, 8, 8), (0, 4, 8, 8),'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
