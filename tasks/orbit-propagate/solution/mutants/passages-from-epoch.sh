#!/usr/bin/env bash
# Misread rule: passage times are reported from the object epoch instead of the window start.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/catalog.py"
s = open(p).read()
for old, new in [
    ('"periapsis_s": [to_seconds(tu, t - t0) for t in times]',
     '"periapsis_s": [to_seconds(tu, t) for t in times]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
