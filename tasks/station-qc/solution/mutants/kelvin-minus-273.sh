#!/usr/bin/env bash
# Lossy shortcut: converts kelvin by subtracting 273 instead of 273.15.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stationqc.py"
s = open(p).read()
for old, new in [
    ('else v - 273.15',
     'else v - 273'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
