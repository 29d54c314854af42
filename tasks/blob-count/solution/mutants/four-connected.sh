#!/usr/bin/env bash
# Misread rule: joins pixels by 4-connectivity, so diagonal-only neighbours start new blobs.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/blobs.py"
s = open(p).read()
for old, new in [
    ('if 0 <= nx < w and 0 <= ny < h and fg[ny][nx]',
     'if (dx == 0 or dy == 0) and 0 <= nx < w and 0 <= ny < h and fg[ny][nx]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
