#!/usr/bin/env bash
# Off-by-one: fills missing numeric values with the upper middle value for an even count instead of the mean of the two middle values.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/prep.py"
s = open(p).read()
for old, new in [
    ('    if n % 2:\n        return v[mid]\n    return (v[mid - 1] + v[mid]) / 2\n',
     '    return v[mid]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
