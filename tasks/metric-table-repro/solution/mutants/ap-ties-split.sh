#!/usr/bin/env bash
# Edge case: average precision takes every example as its own threshold, splitting tied scores.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/ranking.py"
s = open(p).read()
for old, new in [
    ('        while j < len(items) and items[j][0] == items[k][0]:\n            j += 1\n        tp += sum',
     '        j = k + 1\n        tp += sum'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
