#!/usr/bin/env bash
# Misread rule: joins pixels by 4-connectivity, so colonies touching only at a corner are split.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/label.py"
s = open(p).read()
for old, new in [
    ('NEIGHBOURS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]', 'NEIGHBOURS = [(0, -1), (-1, 0), (1, 0), (0, 1)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
