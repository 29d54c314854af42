#!/usr/bin/env bash
# Edge case: restore makes directories only as parents of files, so empty directories are lost and directory modes are never applied.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/restore.py"
s = open(p).read()
for old, new in [
    ('        if e["type"] == "dir":\n            if not os.path.isdir(path):\n                os.mkdir(path)\n            dirs.append((path, e))',
     '        if e["type"] == "dir":\n            continue'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
