#!/usr/bin/env bash
# Unhandled edge case: checks a less_than pair only when its smaller cell is filled last, not when the larger one is.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/solver.py"
s = open(p).read()
for old, new in [
    ('        lt[j].append((i, 1))\n',
     ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
