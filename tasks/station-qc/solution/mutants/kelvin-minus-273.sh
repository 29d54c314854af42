#!/usr/bin/env bash
# Wrong constant: converts kelvin with K - 273 instead of K - 273.15.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/units.py',
     '        return value - 273.15\n',
     '        return value - 273.0\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
