#!/usr/bin/env bash
# Off-by-one: restore by time takes the newest snapshot strictly before the time (a snapshot taken at exactly that time is skipped).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/snapshots.py"
s = open(p).read()
for old, new in [
    ('            if timeutil.parse(s["time"]) <= at:',
     '            if timeutil.parse(s["time"]) < at:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
