#!/usr/bin/env bash
# Lossy shortcut: the audit walks only the true digest's endpoints, so claimed endpoints that do not exist are never reported.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/audit.py"
s = open(p).read()
for old, new in [
    ('    for key in set(mine) | set(theirs):\n', '    for key in set(mine):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
