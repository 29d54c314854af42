#!/usr/bin/env bash
# Misread rule: a secret counts as leaked only when its path is gone from the final image, not when a later layer replaced the file's content.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/secrets.py"
s = open(p).read()
for old, new in [
    ('            if now is not None and now.kind == "file" and now.data == e.data:\n', '            if now is not None:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
