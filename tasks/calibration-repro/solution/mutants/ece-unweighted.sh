#!/usr/bin/env bash
# Misread rule: ECE is the plain mean of |acc - conf| over the non-empty bins instead of weighting each bin by its share of rows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/calib/metrics.py"
s = open(p).read()
for old, new in [
    ("            total += n_b[b] / n * abs(", "            total += 1 / sum(1 for x in n_b if x) * abs("),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
