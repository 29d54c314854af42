#!/usr/bin/env bash
# Off-by-one in ordering: sudo_remove actions of a file in ascending line order, so each removal shifts the later line numbers.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/plan.py"
s = open(p).read()
for old, new in [
    ('            return (RANK[k], a["file"], -a["line"])\n',
     '            return (RANK[k], a["file"], a["line"])\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
