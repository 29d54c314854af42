#!/usr/bin/env bash
# Misread rule: the plan fixes every finding, accepted risks included.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/hostaudit/plan.py"
s = open(p).read()
for old, new in [
    ('    live = found - acc\n',
     '    live = found\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
