#!/usr/bin/env bash
# Off-by-one: reports the first falsified clause by its 0-based position instead of 1-based.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/audit.py"
s = open(p).read()
for old, new in [
    ('for i, c in enumerate(clauses, 1):', 'for i, c in enumerate(clauses):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
