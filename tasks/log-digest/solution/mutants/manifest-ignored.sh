#!/usr/bin/env bash
# Lossy shortcut: reads every file under the input folder, decoys included, even when a manifest lists the real ones.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/logdigest.py"
s = open(p).read()
for old, new in [
    ('    if os.path.exists(man):\n',
     '    if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
