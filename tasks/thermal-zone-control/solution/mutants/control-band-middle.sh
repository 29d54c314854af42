#!/usr/bin/env bash
# Misread rule: aims at the middle of the comfort band instead of just above its lower bound.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/controller.py"
s = open(p).read()
for old, new in [
    ('            short = lower[j] + MARGIN - x[0]\n',
     '            short = (lower[j] + obs["upper_c"][j]) / 2.0 - x[0]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
