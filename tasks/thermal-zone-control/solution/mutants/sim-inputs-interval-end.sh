#!/usr/bin/env bash
# Off-by-one: applies each row's inputs to the interval ending at that row instead of the one starting there.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/thermsim/integrate.py"
s = open(p).read()
for old, new in [
    ('    for (t_prev, u), (t, _) in zip(rows, rows[1:]):\n',
     '    for (t_prev, _), (t, u) in zip(rows, rows[1:]):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
