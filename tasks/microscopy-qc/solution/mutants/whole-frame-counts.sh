#!/usr/bin/env bash
# Lossy shortcut: counts every cell in each passing frame, ignoring the common field of view of the series.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/scopekit/pipeline.py"
s = open(p).read()
for old, new in [
    ('            f.cells = sum(1 for cx, cy in components(f.img)\n                          if x0 <= cx - f.drift[0] <= x1 and y0 <= cy - f.drift[1] <= y1)\n',
     '            f.cells = len(components(f.img))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
