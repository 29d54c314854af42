#!/usr/bin/env bash
# Off-by-one: tests the right and bottom edges at w and h, so colonies cut there are listed as whole.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/measure.py"
s = open(p).read()
for old, new in [
    ('if x == 0 or y == 0 or x == w - 1 or y == h - 1:', 'if x == 0 or y == 0 or x == w or y == h:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
