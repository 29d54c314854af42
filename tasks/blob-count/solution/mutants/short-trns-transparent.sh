#!/usr/bin/env bash
# Unhandled edge case: palette entries beyond a short tRNS chunk are taken as fully transparent, not opaque.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/pixels.py"
s = open(p).read()
for old, new in [
    ('a = alphas[px[0]] if px[0] < len(alphas) else 255', 'a = alphas[px[0]] if px[0] < len(alphas) else 0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
