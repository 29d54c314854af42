#!/usr/bin/env bash
# Unhandled edge case: ignores repeat=no, so player and audit search codes with repeated colours too.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        # A patch that no longer applies would leave the reference program: fail loudly instead.
        assert s.count(old) == 1, "mutant patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/player.py", [('        if repeat:\n            codes = itertools.product', '        if True:\n            codes = itertools.product')])
patch("/app/audit.py", [('    if repeat:\n        live = [', '    if True:\n        live = [')])
PY
