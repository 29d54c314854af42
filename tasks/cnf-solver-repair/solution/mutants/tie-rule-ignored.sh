#!/usr/bin/env bash
# Misread rule: decodes the first model the solver finds instead of the least assignment by the tie rule.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/puzzle.py"
s = open(p).read()
for old, new in [
    ('''    fixed = []
    answer = []
    for it in p.items:
        for s in p.slots:
            if dpll.solve(nvars, cls, fixed + [x(it, s)]) is not None:
                fixed.append(x(it, s))
                answer.append((it, s))
                break
        else:
            raise AssertionError("no slot for %s" % it)
    return answer''', '''    true = set(lit for lit in dpll.solve(nvars, cls) if lit > 0)
    return [(it, s) for it in p.items for s in p.slots if x(it, s) in true]'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
