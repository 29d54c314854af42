#!/usr/bin/env bash
# Misread rule: converts request times with the ratio of units upside down.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kepler.py"
s = open(p).read()
for old, new in [
    ('scale = TIME[tu] / TIME[b.get("time_unit", "s")]',
     'scale = TIME[b.get("time_unit", "s")] / TIME[tu]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
