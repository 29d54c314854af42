#!/usr/bin/env bash
# Lossy shortcut: takes the term from the amendment schedule but keeps the body's superseded fixed rate.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/amendments.py"
s = open(p).read()
for old, new in [
    ('    rate = clauses.fixed_rate(amend)\n    if rate is None:\n        rate = clauses.fixed_rate(body)\n',
     '    rate = clauses.fixed_rate(body)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
