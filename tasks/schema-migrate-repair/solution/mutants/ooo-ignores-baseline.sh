#!/usr/bin/env bash
# Unhandled edge case: counts files at or below the baseline as out of order (audit and migrate's validation).
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/audit.py"
s = open(p).read()
for old, new in [('            if baseline is not None and k <= baseline:\n                continue\n', '')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
