#!/usr/bin/env bash
# Misread rule: a NOPASSWD tag applies only to the command right after it, not to the later commands of the list.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/audit.py"
s = open(p).read()
for old, new in [
    ('            entry = entry.strip()\n            while True:\n',
     '            entry = entry.strip()\n            nop = False\n            while True:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
