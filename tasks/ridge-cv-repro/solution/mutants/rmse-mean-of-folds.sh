#!/usr/bin/env bash
# Misread rule: reports and selects on the mean of the fold RMSEs instead of the pooled RMSE.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/cv.py"
s = open(p).read()
for old, new in [
    ('        cv = mean_fold if variant.rmse_per_fold else math.sqrt(sse / count)\n',
     '        cv = mean_fold\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
