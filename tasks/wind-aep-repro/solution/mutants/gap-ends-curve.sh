#!/usr/bin/env bash
# Misread rule: a lone thin bin ends the curve instead of being filled from its neighbours.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/binning.py"
s = open(p).read()
for old, new in [
    ('        if k + 1 in valid:\n            lo = curve[-1]\n',
     '        if False:\n            lo = curve[-1]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
