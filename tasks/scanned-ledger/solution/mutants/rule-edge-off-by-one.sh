#!/usr/bin/env bash
# Off-by-one: a cell starts at the last pixel column of the rule on its left instead of the first column after it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/recover.py"
s = open(p).read()
for old, new in [
    ('                row[j] = read_cell(ink, vrules[j][1], vrules[k + 1][0], ys[0], tpl)\n',
     '                row[j] = read_cell(ink, vrules[j][1] - 1, vrules[k + 1][0], ys[0], tpl)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
