#!/usr/bin/env bash
# Misread rule: takes the percentile at 0-based index floor(p·n/100) instead of the nearest rank ceil(p·n/100).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/stats.py"
s = open(p).read()
for old, new in [
    ('    rank = -(-p * n // 100)\n    return s[max(rank, 1) - 1]', '    return s[min(p * n // 100, n - 1)]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
