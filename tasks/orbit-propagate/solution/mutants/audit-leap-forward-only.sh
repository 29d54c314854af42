#!/usr/bin/env bash
# Edge case: LEAP_SECOND only tests the time of flight one second longer, not one second shorter.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/audit.py"
s = open(p).read()
for old, new in [
    ('for k in (-1.0, 1.0)',
     'for k in (1.0,)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
