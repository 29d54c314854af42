#!/usr/bin/env bash
# Misread rule: orders '~' like any other non-letter, after the end of the string, so 1.0~rc1 counts as newer than 1.0.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/debver.py"
s = open(p).read()
for old, new in [
    ('    if c == "~":\n        return -1\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
