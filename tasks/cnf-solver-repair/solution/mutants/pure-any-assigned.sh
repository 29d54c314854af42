#!/usr/bin/env bash
# Misread rule: takes a clause with any assigned variable as satisfied when looking for pure literals, so a literal whose negation sits in an open clause can be set as pure.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/dpll.py"
s = open(p).read()
for old, new in [
    ('''def _pure_literals(open_clauses):
    seen = set()
    for c in open_clauses:
        seen.update(c)
''', '''def _pure_literals(open_clauses, clauses, assign):
    seen = set()
    for c in clauses:
        if any(abs(lit) in assign for lit in c):
            continue
        seen.update(c)
'''),
    ('pure = _pure_literals(open_clauses)', 'pure = _pure_literals(open_clauses, clauses, assign)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
