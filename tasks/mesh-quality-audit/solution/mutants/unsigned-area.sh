#!/usr/bin/env bash
# Lossy shortcut: takes the absolute value in signed_area, so an inverted (clockwise) triangle is never seen.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/meshkit/geometry.py"
s = open(p).read()
for old, new in [
    ('    return 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))',
     '    return 0.5 * abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
