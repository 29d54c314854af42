#!/usr/bin/env bash
# Unhandled edge case: ignores missing column rules, so a merged section row is split into per-column cells.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/recover.py"
s = open(p).read()
for old, new in [
    ('            while k + 1 < ncol and not all(present[x] for x in range(*vrules[k + 1])):\n',
     '            while False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
