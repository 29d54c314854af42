#!/usr/bin/env bash
# Unhandled edge case: searches the temperature in [0.1, 10] instead of [0.05, 20], so very sharp or very flat models stop at the wrong end.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/temperature.py"
s = open(p).read()
for old, new in [
    ("LO, HI, TOL = 0.05, 20.0, 1e-7\n", "LO, HI, TOL = 0.1, 10.0, 1e-7\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
