#!/usr/bin/env bash
# Off-by-one: migrate runs the baseline version itself after a baseline.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
for old, new in [('(baseline is None or k > baseline) and', '(baseline is None or k >= baseline) and')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
