#!/usr/bin/env bash
# Misread rule: the audit accepts any valid grid for a MULTIPLE puzzle (no NOT_LEAST).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/audit.py"
s = open(p).read()
for old, new in [
    ('    if status == MULTIPLE:\n        yield "NOT_LEAST"',
     '    if status == "never":\n        yield "NOT_LEAST"'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
