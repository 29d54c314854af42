#!/usr/bin/env bash
# Unhandled edge case: Stumpff functions without the hyperbolic (z < 0) branch, so flybys use a series far outside its range.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kepler.py"
s = open(p).read()
for old, new in [
    ('    if z < -1e-6:\n',
     '    if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
