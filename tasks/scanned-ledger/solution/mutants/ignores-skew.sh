#!/usr/bin/env bash
# Unhandled edge case: assumes the scan is square to the page and never looks for the column-step skew.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/recover.py"
s = open(p).read()
for old, new in [
    ('    ink = unshear(ink, find_skew(ink))\n',
     '    ink = unshear(ink, None)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
