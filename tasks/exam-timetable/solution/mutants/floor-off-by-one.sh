#!/usr/bin/env bash
# Off-by-one: the per-student floor takes n exams in a day of S slots to force 2n - S back-to-back pairs instead of 2n - S - 1, so the search stops early, above the optimum.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/search.py"
s = open(p).read()
for old, new in [
    ('        best += max(0, 2 * n - slots - 1)\n',
     '        best += max(0, 2 * n - slots)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
