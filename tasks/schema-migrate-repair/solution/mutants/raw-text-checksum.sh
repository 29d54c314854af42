#!/usr/bin/env bash
# Lossy shortcut: checksums the file text as read, so a file rewritten with CRLF ends or a BOM counts as drift.
set -euo pipefail
SKIP_PROJECT=1 bash /solution/solve.sh
python3 - <<'PY'
p = "/app/migrator/scripts.py"
s = open(p).read()
for old, new in [('hashlib.sha256(normalise(text).encode("utf-8"))', 'hashlib.sha256(text.encode("utf-8"))')]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
bash /solution/run-project.sh
