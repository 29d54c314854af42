#!/usr/bin/env bash
# Misread rule: records a failed migration in the history with success 0 (its changes rolled back), so the rerun refuses with FAILED.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/engine.py"
s = open(p).read()
for old, new in [('            conn.execute("ROLLBACK")\n', '            conn.execute("ROLLBACK")\n        if script.kind == "V":\n            history.insert(conn, script.version_text, script.description, "SQL", script.name, script.checksum, 0)\n')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
