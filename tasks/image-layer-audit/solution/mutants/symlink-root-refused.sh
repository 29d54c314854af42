#!/usr/bin/env bash
# Unhandled edge case: refuses a symbolic link whose '..' climbs above the image root instead of staying at the root, so a dpkg database behind such a link is not found.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/rootfs.py"
s = open(p).read()
for old, new in [
    ('                if cur:\n                    cur.pop()\n                continue\n', '                if not cur:\n                    return None\n                cur.pop()\n                continue\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
