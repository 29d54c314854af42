#!/usr/bin/env bash
# Off-by-one: drops colonies of exactly 6 pixels as specks.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/measure.py"
s = open(p).read()
for old, new in [
    ('        if len(comp) < MIN_AREA:\n', '        if len(comp) <= MIN_AREA:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
