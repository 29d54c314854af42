#!/usr/bin/env bash
# Unhandled edge case: strips legal forms only without a final dot, so 'Ltd.', 'Inc.' and 'S.A.' stay in the name.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/refs.py"
s = open(p).read()
for old, new in [
    ('while words and words[-1].rstrip(".") in LEGAL:', 'while words and words[-1] in LEGAL:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
