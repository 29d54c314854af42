#!/usr/bin/env bash
# Unhandled edge case: reads the bands in the usual B02, B03, B04, B08 file order, ignoring the scene's band_order.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/scene.py"
s = open(p).read()
for old, new in [
    ('    green = band(order.index(GREEN) + 1)\n    nir = band(order.index(NIR) + 1)\n',
     '    green = band(2)\n    nir = band(4)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
