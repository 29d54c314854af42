#!/usr/bin/env bash
# Misread rule: passages are also searched on orbits with e < 1e-4 (the circular-orbit rule is ignored).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/catalog.py"
s = open(p).read()
for old, new in [
    ('periapsis_times(obj["r"], obj["v"], mu, t0, t1, step) if s["e"] >= 1e-4 else []',
     'periapsis_times(obj["r"], obj["v"], mu, t0, t1, step)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
