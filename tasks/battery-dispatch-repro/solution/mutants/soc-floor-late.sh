#!/usr/bin/env bash
# Off-by-one: limits a discharge by the state of charge one interval old, so the battery runs below its floor for an interval before the clamp catches up.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/policy.py'
s = open(p).read()
for old, new in [
    ('    steps = []\n    for iv in intervals:\n',
     '    steps = []\n    stale = battery.max_discharge_kw(DT_H)\n    for iv in intervals:\n        fresh = battery.max_discharge_kw(DT_H)\n'),
    ('            discharge = min(iv.load_kw - target, battery.max_discharge_kw(DT_H))\n',
     '            discharge = min(iv.load_kw - target, stale)\n'),
    ('        steps.append(',
     '        stale = fresh\n        steps.append('),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
