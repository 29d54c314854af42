#!/usr/bin/env bash
# Lossy shortcut: McNemar's chi-squared approximation (continuity-corrected) instead of the exact binomial test.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/repro.py"
s = open(p).read()
for old, new in [
    ('    k = min(b, c)\n    p = sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n\n    return min(1.0, 2 * p)\n',
     '    x = (abs(b - c) - 1) ** 2 / n\n    return min(1.0, math.erfc(math.sqrt(x / 2)))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
