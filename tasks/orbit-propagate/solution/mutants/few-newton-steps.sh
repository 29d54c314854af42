#!/usr/bin/env bash
# Lossy shortcut: stops after 6 Newton steps on the time equation.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kepler.py"
s = open(p).read()
for old, new in [
    ('    for _ in range(200):\n',
     '    for _ in range(6):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
