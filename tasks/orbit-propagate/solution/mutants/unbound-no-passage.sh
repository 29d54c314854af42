#!/usr/bin/env bash
# Misread rule: an unbound (hyperbolic) orbit is taken to have no periapsis passage to report.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/catalog.py"
s = open(p).read()
for old, new in [
    ('        step = t1 - t0\n',
     '        step = t1 - t0\n        t1 = t0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
