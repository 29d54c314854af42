#!/usr/bin/env bash
# Lossy shortcut: a 'message repeated N times' line counts as one failed login instead of N.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/events.py"
s = open(p).read()
for old, new in [
    ('            n, msg = int(r["n"]), r["inner"].strip()', '            n, msg = 1, r["inner"].strip()'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
