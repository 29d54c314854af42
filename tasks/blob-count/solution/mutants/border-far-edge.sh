#!/usr/bin/env bash
# Off-by-one: tests the right and bottom edges at w and h, so blobs cut there count as interior.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/blobs.py"
s = open(p).read()
for old, new in [
    ('if any(px in (0, w - 1) or py in (0, h - 1) for px, py in pix):',
     'if any(px in (0, w) or py in (0, h) for px, py in pix):'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
