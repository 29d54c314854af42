#!/usr/bin/env bash
# Unhandled edge case: fills a short gap at the start or end of the file with its one ok neighbour's energy instead of leaving it missing.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pvyield/model.py"
s = open(p).read()
for old, new in [
    ('        if i > 0 and j < n and (j - i) * step_min <= GAP_FILL_MAX_MIN:\n',
     '        if (i > 0 or j < n) and (i == 0 or j == n) and (j - i) * step_min <= GAP_FILL_MAX_MIN:\n            for k in range(i, j):\n                ivs[k].status = "filled"\n                ivs[k].ac_kwh = ivs[i - 1].ac_kwh if i > 0 else ivs[j].ac_kwh\n        elif i > 0 and j < n and (j - i) * step_min <= GAP_FILL_MAX_MIN:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
