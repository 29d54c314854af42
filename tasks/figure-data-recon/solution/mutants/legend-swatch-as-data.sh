#!/usr/bin/env bash
# Unhandled edge case: takes every pixel of a series colour inside the frame as data, legend swatches included.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/series.py"
s = open(p).read()
for old, new in [
    ('            if lx0 <= x <= lx1 and ly0 <= y <= ly1:\n                continue\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
