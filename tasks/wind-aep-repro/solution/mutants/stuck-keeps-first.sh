#!/usr/bin/env bash
# Off-by-one: a frozen-anemometer run keeps its first record (only the repeats are dropped).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/filters.py"
s = open(p).read()
for old, new in [
    ('            for k in range(i, j + 1):\n',
     '            for k in range(i + 1, j + 1):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
