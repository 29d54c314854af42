#!/usr/bin/env bash
# Honest partial: the build-file side repaired (recursive variables and += expanded late, the first
# matching pattern rule, cycles through pattern rules, the Kahn min-name build order) and the
# project built once; the dirty checks (modification times, output_changed, order-only
# prerequisites), the failure handling of build and -k, and the audit command are left as shipped.
set -euo pipefail
install -m 0644 /solution/buildcore/buildfile.py /app/buildcore/buildfile.py
install -m 0644 /solution/buildcore/graph.py /app/buildcore/graph.py
python3 - <<'PY'
p = "/app/buildcore/plan.py"
s = open(p).read()
old = "        self.order = self.graph.order(goals)\n"
assert s.count(old) == 1, "partial patch does not apply"
open(p, "w").write(s.replace(old, "        self.order = self.graph.order()\n"))
PY
cd /app/project
python3 /app/minibuild.py build /app/project/Buildfile /app/project/.minibuild/state.json > /app/project/build.log || true
