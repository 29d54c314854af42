#!/usr/bin/env bash
# Lossy shortcut: recognises re-shipped files by their raw bytes, so a rotated file shipped again gzipped is read twice.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/sources.py"
s = open(p).read()
for old, new in [
    ('        h = hashlib.sha256(data).hexdigest()\n', '        h = hashlib.sha256(raw).hexdigest()\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
