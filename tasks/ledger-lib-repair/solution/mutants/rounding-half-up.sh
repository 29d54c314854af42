#!/usr/bin/env bash
# Misread rule: rounds base values half up (away from zero) instead of half to even.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ledgerkit/money.py"
s = open(p).read()
for old, new in [
    ('import ROUND_HALF_EVEN,', 'import ROUND_HALF_UP,'),
    ('rounding=ROUND_HALF_EVEN)', 'rounding=ROUND_HALF_UP)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
