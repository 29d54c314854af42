#!/usr/bin/env bash
# Misread rule: estimates a scale for every sensor whose name starts with monocular, so monocular-inertial runs are aligned with sim3 too.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/evaluate.py"
s = open(p).read()
for old, new in [
    ('    with_scale = system["sensor"] in SIM3_SENSORS\n',
     '    with_scale = system["sensor"].startswith("monocular")\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
