#!/usr/bin/env bash
# Off-by-one: reads only the first digit of a row number, so C10 to C12 are taken for C1.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/coords.py'
s = open(p).read()
for old, new in [
    ('return LETTERS.index(text[0]), int(text[1:]) - 1',
     'return LETTERS.index(text[0]), int(text[1]) - 1'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
