#!/usr/bin/env bash
# Tie rule: on exactly equal cv_rmse keeps the smallest lambda as lambda_min instead of the largest.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/select.py"
s = open(p).read()
for old, new in [
    ('if best is None or point[1] < best[1] or (point[1] == best[1] and point[0] > best[0]):',
     'if best is None or point[1] < best[1]:'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
