#!/usr/bin/env bash
# Misread rule: when several pattern rules match, the last one in the file is used instead of the first.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/graph.py"
s = open(p).read()
for old, new in [('            for p in bf.patterns:\n', '            for p in reversed(bf.patterns):\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
