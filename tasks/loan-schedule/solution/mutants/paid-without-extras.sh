#!/usr/bin/env bash
# Lossy shortcut: total_paid in the summary sums the instalment payments only, without the extra payments.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/summary.py"
s = open(p).read()
for old, new in [
    ('total_paid=fmt(sum((r["payment"] + r["extra"] for r in rows), ZERO)))',
     'total_paid=fmt(sum((r["payment"] for r in rows), ZERO)))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
