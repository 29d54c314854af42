#!/usr/bin/env bash
# Misread rule: takes a load_kwh column (energy per 15 minutes) as kW without multiplying by 4.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/timeseries.py'
s = open(p).read()
for old, new in [
    ('            kw = float(r["load_kwh"]) / DT_H\n',
     '            kw = float(r["load_kwh"])\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
