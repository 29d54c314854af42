#!/usr/bin/env bash
# Misread rule: applies an opaque marker where it stands in the archive, so it also clears the entries its own layer added under the directory before it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/rootfs.py"
s = open(p).read()
for old, new in [
    ('            if e.is_opaque():\n                self.clear_dir(posixpath.dirname(e.path))\n            elif e.is_whiteout():\n                self.remove(e.whited_path())\n        for e in entries:\n            if e.is_opaque() or e.is_whiteout():\n                continue\n',
     '            if e.is_whiteout():\n                self.remove(e.whited_path())\n        for e in entries:\n            if e.is_opaque():\n                self.clear_dir(posixpath.dirname(e.path))\n                continue\n            if e.is_whiteout():\n                continue\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
