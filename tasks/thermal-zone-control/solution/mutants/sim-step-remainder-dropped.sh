#!/usr/bin/env bash
# Unhandled edge case: integrates only whole 60 s sub-steps, dropping the remainder of an interval that is not a multiple of 60 s.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/thermsim/integrate.py"
s = open(p).read()
for old, new in [
    ('    n = max(1, int(math.ceil(dt / MAX_STEP - 1e-9)))\n    h = dt / n\n',
     '    n = int(dt // MAX_STEP)\n    h = MAX_STEP\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
