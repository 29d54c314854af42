#!/usr/bin/env bash
# Unhandled edge case: reads all text at scale 1, so charts drawn with scale-2 text cannot be read.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/axes.py"
s = open(p).read()
for old, new in [
    ('    for s in (2, 1):\n', '    for s in (1,):\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
