#!/usr/bin/env bash
# Off-by-one: a pixel exactly at the threshold is background (L·A > bar instead of >=).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/pixels.py"
s = open(p).read()
for old, new in [
    ('line.append(lum * a >= bar)', 'line.append(lum * a > bar)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
