#!/usr/bin/env bash
# Off-by-one: a new TAI-UTC value is taken to apply from the day after its effective date.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/timescale.py"
s = open(p).read()
for old, new in [
    ('if start <= day:',
     'if start < day:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
