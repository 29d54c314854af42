#!/usr/bin/env bash
# Off-by-one: keeps records exactly at --until (the window is half-open).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/timeutil.py"
s = open(p).read()
for old, new in [
    ('if until is not None and ts >= until:', 'if until is not None and ts > until:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
