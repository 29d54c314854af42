#!/usr/bin/env bash
# Off-by-one: the largest sum the other cells of a cage can still reach leaves out the largest free digit.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/propagate.py"
s = open(p).read()
for old, new in [
    ('                hi = sum(avail[len(avail) - m:])',
     '                hi = sum(avail[len(avail) - m - 1:len(avail) - 1])'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
