#!/usr/bin/env bash
# Misread rule: a file counts as unchanged when its mtime alone matches the parent's (a file grown under the same mtime keeps its old chunks).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/backup.py"
s = open(p).read()
for old, new in [
    ('old["size"] == e["size"] and old["mtime"] == e["mtime"]',
     'old["mtime"] == e["mtime"]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
