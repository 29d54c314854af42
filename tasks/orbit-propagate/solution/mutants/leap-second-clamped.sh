#!/usr/bin/env bash
# Edge case: a 23:59:60.xxx epoch is clamped into 23:59:59.xxx.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/orbitkit/timescale.py"
s = open(p).read()
for old, new in [
    ('sec = float(ss)',
     'sec = min(float(ss), 59.0 + float(ss) % 1)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
