#!/usr/bin/env bash
# Off-by-one: the sequential counter's overflow clauses stop at x(N-1), so at most K lets K + 1 through when xN is the extra one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/card.py"
s = open(p).read()
for old, new in [
    ('''    out.append([-lits[n - 1], -s[n - 2][k - 1]])
    return out''', '''    return out'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
