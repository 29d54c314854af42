#!/usr/bin/env bash
# Lossy shortcut: takes the term from the amendment schedule but not its new fixed rate.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loan.py"
s = open(p).read()
for old, new in [
    ('    if m:\n        r0 = rate(m)\n',
     '    if m:\n        pass\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
