#!/usr/bin/env bash
# Misread rule: counts the boxes in a band as n / box height instead of n / box width, wrong for every non-square box.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/solver.py"
s = open(p).read()
for old, new in [
    ('box_of = [(i // n) // br * (n // bc) + (i % n) // bc for i in range(cells)]',
     'box_of = [(i // n) // br * (n // br) + (i % n) // bc for i in range(cells)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
