#!/usr/bin/env bash
# Misread rule: grey+alpha pixels are treated as opaque (their alpha sample is ignored).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/pixels.py"
s = open(p).read()
for old, new in [
    ('        return 1000 * px[0], px[1]\n', '        return 1000 * px[0], full\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
