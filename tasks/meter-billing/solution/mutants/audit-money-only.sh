#!/usr/bin/env bash
# Lossy shortcut: the audit compares only the money columns, so wrong usage is reported as a charge error (or missed).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bill.py"
s = open(p).read()
for old, new in [
    ("        for i, col in enumerate(BILL_COLUMNS[1:], 1):\n", "        for i, col in enumerate(BILL_COLUMNS[3:], 3):\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
