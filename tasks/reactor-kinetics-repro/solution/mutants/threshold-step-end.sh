#!/usr/bin/env bash
# Off-by-one: reports the end of the step in which the threshold was crossed instead of locating the crossing inside it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rxsim.py"
s = open(p).read()
for old, new in [
    ('                found.append(crossing_time(integ, si, value, t0, ya, t1, yb))\n',
     '                found.append(t1)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
