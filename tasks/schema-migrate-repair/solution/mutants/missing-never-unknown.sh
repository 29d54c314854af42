#!/usr/bin/env bash
# Misread rule: reports every applied version without a file as MISSING, never UNKNOWN.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/audit.py"
s = open(p).read()
for old, new in [('        elif top_file is None or k > top_file:\n            out.add((k, "UNKNOWN"))\n', '')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
