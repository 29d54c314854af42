#!/usr/bin/env bash
# Off-by-one: a run of 2 hot days already counts as a cell event (the rule needs at least 3).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/heatwave.py"
s = open(p).read()
for old, new in [
    ('            if e - s + 1 >= 3:\n                ex =',
     '            if e - s + 1 >= 2:\n                ex ='),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
