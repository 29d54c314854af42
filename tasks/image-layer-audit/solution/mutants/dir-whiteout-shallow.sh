#!/usr/bin/env bash
# Unhandled edge case: a whiteout deletes only the named entry, so the contents of a whited-out directory stay in the image.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/rootfs.py"
s = open(p).read()
for old, new in [
    ('                self.remove(e.whited_path())\n', '                self.nodes.pop(e.whited_path(), None)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
