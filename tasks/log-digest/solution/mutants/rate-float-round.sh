#!/usr/bin/env bash
# Misread rule: rounds the error rate with float round() (half to even on a binary fraction), not half up.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/stats.py"
s = open(p).read()
for old, new in [
    ('    return float((Decimal(part) / Decimal(whole)).quantize(RATE, rounding=ROUND_HALF_UP))', '    return round(part / whole, 4)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
