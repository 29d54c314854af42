#!/usr/bin/env bash
# Unhandled edge case: reads period-end timestamps as interval starts, shifting every interval of such a file by 15 minutes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/battsim/timeseries.py'
s = open(p).read()
for old, new in [
    ('    if label == "end":\n        t = t - timedelta(minutes=STEP_MIN)\n',
     ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
