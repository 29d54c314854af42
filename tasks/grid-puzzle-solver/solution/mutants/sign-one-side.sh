#!/usr/bin/env bash
# Lossy shortcut: checks an inequality sign only when its larger cell is the one just filled.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/rules.py"
s = open(p).read()
for old, new in [
    ('    for lt in puzzle.less_of[cell]:\n        va',
     '    for lt in puzzle.less_of[cell]:\n        if lt.b != cell:\n            continue\n        va'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
