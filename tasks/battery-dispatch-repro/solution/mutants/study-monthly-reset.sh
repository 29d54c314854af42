#!/usr/bin/env bash
# Misread rule: restarts each month of the study from the initial state of charge instead of one continuous run.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/study.py'
s = open(p).read()
for old, new in [
    ('        steps = dispatch(intervals, battery, policy)\n',
     '        steps = []\n        for m in base:\n            battery = Battery(spec)\n            steps += dispatch([iv for iv in intervals if iv.month == m], battery, policy)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
