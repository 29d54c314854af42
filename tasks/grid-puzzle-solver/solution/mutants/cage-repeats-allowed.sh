#!/usr/bin/env bash
# Misread rule: enforces killer cage sums but lets a digit repeat inside a cage.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/solver.py"
s = open(p).read()
for old, new in [
    ('            m &= ~cg["used"]\n',
     ''),
    ('free = [d for d in range(1, n + 1) if not (cg["used"] >> d) & 1]',
     'free = list(range(1, n + 1))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
