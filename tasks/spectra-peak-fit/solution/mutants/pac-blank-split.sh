#!/usr/bin/env bash
# Unhandled edge case: splits XYDATA rows on blanks only, so PAC rows whose values are packed with +/- signs cannot be read.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/readers.py"
s = open(p).read()
for old, new in [
    ('    return [float(t) for t in _TOKEN.findall(row)]',
     '    return [float(t) for t in row.split()]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
