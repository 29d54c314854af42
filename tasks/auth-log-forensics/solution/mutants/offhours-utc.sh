#!/usr/bin/env bash
# Misread rule: judges working hours and days on the UTC clock instead of the host's local time.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/alerts.py"
s = open(p).read()
for old, new in [
    ('        loc = dt.datetime.fromtimestamp(e.t + info.offset_min * 60, dt.timezone.utc)', '        loc = dt.datetime.fromtimestamp(e.t, dt.timezone.utc)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
