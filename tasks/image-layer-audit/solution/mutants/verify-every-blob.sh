#!/usr/bin/env bash
# Misread rule: verifies every blob of the layout, so a corrupt blob of another platform's image fails the amd64 image too.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/blobs.py"
s = open(p).read()
for old, new in [
    ('    lay = Layout(root)\n', '    lay = Layout(root)\n    for name in sorted(os.listdir(os.path.join(root, "blobs", "sha256"))):\n        lay.read_blob("sha256:" + name)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
