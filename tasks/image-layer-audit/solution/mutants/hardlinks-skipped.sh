#!/usr/bin/env bash
# Lossy shortcut: skips hard-link members like devices and fifos, so a hard-linked copy of a file never appears in the image.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/tarlayer.py"
s = open(p).read()
for old, new in [
    ('            elif m.islnk():\n                out.append(Entry(path, "hardlink", mode, m.uid, m.gid, link=norm(m.linkname)))\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
