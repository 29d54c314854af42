#!/usr/bin/env bash
# Misread rule: a term written "over a term of Y years" is taken as Y instalments instead of 12·Y.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/loanbook/clauses.py"
s = open(p).read()
for old, new in [
    ('    return 12 * int(m.group(1)) if m else None',
     '    return int(m.group(1)) if m else None'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
