#!/usr/bin/env bash
# Misread rule: a Paeth tie between the above and above-left bytes goes to above-left (c), not above (b).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/png.py"
s = open(p).read()
for old, new in [
    ('    if pb <= pc:\n        return b\n', '    if pb < pc:\n        return b\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
