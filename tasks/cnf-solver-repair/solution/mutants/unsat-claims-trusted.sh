#!/usr/bin/env bash
# Lossy shortcut: accepts every UNSATISFIABLE claim without solving the formula, so a wrong UNSAT claim passes as OK.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/audit.py"
s = open(p).read()
for old, new in [
    ('''    if dpll.solve(nvars, clauses) is not None:
        return "WRONG_UNSAT", ""
    return "OK", ""''', '''    return "OK", ""'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
