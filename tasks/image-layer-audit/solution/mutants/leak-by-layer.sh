#!/usr/bin/env bash
# Misread rule: calls a secret leaked whenever a later layer rewrote the file, even when it re-added exactly the same content (a mode change).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/secrets.py"
s = open(p).read()
for old, new in [
    ('            if now is not None and now.kind == "file" and now.data == e.data:\n', '            if now is not None and now.kind == "file" and now.layer == idx:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
