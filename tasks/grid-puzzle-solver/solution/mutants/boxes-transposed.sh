#!/usr/bin/env bash
# Misread rule: takes box [r, c] as c rows by r columns, right only for square boxes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/solver.py"
s = open(p).read()
for old, new in [
    ('box_of = [(i // n) // br * (n // bc) + (i % n) // bc for i in range(cells)]',
     'box_of = [(i // n) // bc * (n // br) + (i % n) // br for i in range(cells)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
