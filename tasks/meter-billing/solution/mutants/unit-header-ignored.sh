#!/usr/bin/env bash
# Lossy shortcut: takes every register as kWh, ignoring a Wh or MWh unit header.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ('scale = UNITS[meta.get("unit", "kWh").lower()]',
     'scale = 1.0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
