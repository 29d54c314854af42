#!/usr/bin/env bash
# Unhandled edge case: decodes every image as non-interlaced, ignoring Adam7.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/blobs.py"
s = open(p).read()
for old, new in [
    ('passes = ADAM7 if inter == 1 else [(0, 0, 1, 1)]',
     'passes = [(0, 0, 1, 1)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
