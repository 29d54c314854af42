#!/usr/bin/env bash
# Misread rule: TOA5 logger clocks are taken as UTC (station offsets from stations.csv not applied).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/toa5.py',
     '    offset = offsets.get(station, 0)\n',
     '    offset = offsets.get(station.lower(), 0)\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
