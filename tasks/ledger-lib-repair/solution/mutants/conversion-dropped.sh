#!/usr/bin/env bash
# Lossy shortcut: drops the equity:conversion line, so the base values of a transaction need not balance.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ledgerkit/book.py"
s = open(p).read()
for old, new in [
    ('            if residual != 0:\n',
     '            if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
