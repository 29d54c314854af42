#!/usr/bin/env bash
# Off-by-one: bins are left-closed (bin = floor(c*B) + 1), so a confidence exactly on an edge such as 0.5 lands in the bin above.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/binning.py"
s = open(p).read()
for old, new in [
    ("    i = bisect.bisect_left(edge_list, v)\n", "    i = bisect.bisect_right(edge_list, v)\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
