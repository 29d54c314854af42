#!/usr/bin/env bash
# Misread rule: applies pending migrations in file-name order, so V10 runs before V2 and V2_1.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
for old, new in [('    for k in pending:\n', '    for k in sorted(pending, key=lambda k: versioned[k].name):\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
