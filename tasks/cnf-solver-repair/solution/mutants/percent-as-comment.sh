#!/usr/bin/env bash
# Unhandled edge case: reads a % line as a comment instead of the end of the formula, so the stray 0 after it becomes an empty clause.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/dimacs.py"
s = open(p).read()
for old, new in [
    ('''        if line[0] == "%":
            break
''', '''        if line[0] == "%":
            continue
'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
