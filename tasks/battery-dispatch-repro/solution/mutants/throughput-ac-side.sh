#!/usr/bin/env bash
# Lossy shortcut: counts degradation throughput as the AC energy delivered instead of the energy drawn from storage.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/policy.py'
s = open(p).read()
for old, new in [
    ('            drawn = battery.discharge(discharge, DT_H)\n',
     '            battery.discharge(discharge, DT_H)\n            drawn = discharge * DT_H\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
