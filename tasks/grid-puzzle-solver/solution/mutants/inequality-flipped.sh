#!/usr/bin/env bash
# Misread rule: reads each less_than pair [a, b] as a > b.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/solver.py"
s = open(p).read()
for old, new in [
    ('        lt[i].append((j, -1))\n        lt[j].append((i, 1))',
     '        lt[i].append((j, 1))\n        lt[j].append((i, -1))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
