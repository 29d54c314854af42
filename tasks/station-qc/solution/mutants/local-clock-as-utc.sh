#!/usr/bin/env bash
# Misread rule: takes local clock times as UTC, so days are assigned by local date.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stationqc.py"
s = open(p).read()
for old, new in [
    ('    return d.astimezone(timezone.utc)\n',
     '    return d.replace(tzinfo=timezone.utc)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
