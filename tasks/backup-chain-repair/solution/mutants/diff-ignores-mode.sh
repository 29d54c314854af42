#!/usr/bin/env bash
# Lossy shortcut: diff compares type, mtime, size, chunks and target but not the mode, so chmod-only changes are not listed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/diff.py"
s = open(p).read()
for old, new in [
    ('FIELDS = ("type", "mode", "mtime",',
     'FIELDS = ("type", "mtime",'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
