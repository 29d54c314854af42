#!/usr/bin/env bash
# Misread rule: a dirty order-only prerequisite makes its dependent dirty (dep_rebuilt), as a normal one does.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/plan.py"
s = open(p).read()
for old, new in [('        for p in inputs:\n            if p in self.graph.nodes', '        for p in inputs + node.orderonly:\n            if p in self.graph.nodes')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
