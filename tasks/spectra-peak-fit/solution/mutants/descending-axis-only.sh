#!/usr/bin/env bash
# Unhandled edge case: reverses a descending axis without reversing the intensities with it, so a descending export's peaks land mirrored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PATCH'
p = "/app/specfit/readers.py"
s = open(p).read()
for old, new in [
    ('    pairs = sorted(zip(x, y))\n    return [p[0] for p in pairs], [p[1] for p in pairs]',
     '    if x and x[0] > x[-1]:\n        x = x[::-1]\n    return x, y'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PATCH
