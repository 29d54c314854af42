#!/usr/bin/env bash
# Lossy shortcut: WRONG_UNITS only tests the x1000 direction (km read as m), not /1000.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/audit.py"
s = open(p).read()
for old, new in [
    (' or close(said, [x / 1000.0 for x in right])',
     ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
