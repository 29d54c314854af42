#!/usr/bin/env bash
# Misread rule: reads a missing wind speed as calm (0 m/s) instead of the 1 m/s default.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/model.py"
s = open(p).read()
for old, new in [
    ('DEFAULT_WIND = 1.0', 'DEFAULT_WIND = 0.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
