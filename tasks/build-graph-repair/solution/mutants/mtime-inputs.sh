#!/usr/bin/env bash
# Lossy shortcut: decides input_changed by modification time (an input newer than built_at) instead of by content hash.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/buildcore/plan.py"
s = open(p).read()
for old, new in [('            if file_hash(self.path(p)) != recorded[p]:\n', '            if not os.path.exists(self.path(p)) or os.path.getmtime(self.path(p)) > entry.get("built_at", 0):\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
