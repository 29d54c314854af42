#!/usr/bin/env bash
# Off-by-one: takes NDWI >= 0 as water, so waterlogged pixels with green equal to nir count as flooded.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/water.py"
s = open(p).read()
for old, new in [
    ('    return v is not None and v > 0\n', '    return v is not None and v >= 0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
