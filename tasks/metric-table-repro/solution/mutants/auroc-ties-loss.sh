#!/usr/bin/env bash
# Edge case: AUROC counts a tied positive-negative pair as a loss instead of one half.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/ranking.py"
s = open(p).read()
for old, new in [
    ('        mid = (k + 1 + j) / 2.0\n        rank_sum += mid * sum(1 for t in items[k:j] if t[1])\n',
     '        hits = sum(1 for t in items[k:j] if t[1])\n        rank_sum += hits * k + hits * (hits + 1) / 2.0\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
