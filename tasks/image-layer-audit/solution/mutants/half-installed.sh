#!/usr/bin/env bash
# Misread rule: reads the first word of Status (install or hold) as installed, so half-installed packages are matched against the feed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/dpkg.py"
s = open(p).read()
for old, new in [
    ('if len(status) == 3 and status[2] == "installed" and', 'if status and status[0] in ("install", "hold") and'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
