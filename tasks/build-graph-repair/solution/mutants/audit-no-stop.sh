#!/usr/bin/env bash
# Misread rule: the audit expects runs to go on after a failure in a build without keep-going.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/audit.py"
s = open(p).read()
for old, new in [('            if not keep_going:\n                stopped = True\n', '            pass\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
