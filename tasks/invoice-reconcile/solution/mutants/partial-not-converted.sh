#!/usr/bin/env bash
# Lossy shortcut: reduces a part-paid invoice by the payment amount in the payment currency, without converting it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/allocate.py"
s = open(p).read()
for old, new in [
    ('applied = min(inv["open"], fx.conv(rem, pc, inv["currency"], day))', 'applied = min(inv["open"], rem)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
