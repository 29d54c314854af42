#!/usr/bin/env bash
# Misread rule: reports the stage motion instead of the image content's motion, so every drift has the opposite sign.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/pipeline.py"
s = open(p).read()
for old, new in [
    ('            dx, dy = dx + sx, dy + sy\n', '            dx, dy = dx - sx, dy - sy\n'),
    ('            f.cells = sum(1 for cx, cy in components(f.img)\n                          if x0 <= cx - f.drift[0] <= x1 and y0 <= cy - f.drift[1] <= y1)\n',
     '            f.cells = sum(1 for cx, cy in components(f.img)\n                          if x0 <= cx + f.drift[0] <= x1 and y0 <= cy + f.drift[1] <= y1)\n'),
    ('        x0 = max(-f.drift[0] for f in good)\n        x1 = min(w - 1 - f.drift[0] for f in good)\n'
     '        y0 = max(-f.drift[1] for f in good)\n        y1 = min(h - 1 - f.drift[1] for f in good)\n',
     '        x0 = max(f.drift[0] for f in good)\n        x1 = min(w - 1 + f.drift[0] for f in good)\n'
     '        y0 = max(f.drift[1] for f in good)\n        y1 = min(h - 1 + f.drift[1] for f in good)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
