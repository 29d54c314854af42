#!/usr/bin/env bash
# Honest partial: the reader, the solver and the cardinality encodings repaired (stage 1), but the
# puzzle decoder takes the first model the solver finds (no tie rule) and there is no `audit`.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/puzzle.py"
s = open(p).read()
old = """    nvars, cls, x = encode(p)
    if dpll.solve(nvars, cls) is None:
        return None
    fixed = []
    answer = []
    for it in p.items:
        for s in p.slots:
            if dpll.solve(nvars, cls, fixed + [x(it, s)]) is not None:
                fixed.append(x(it, s))
                answer.append((it, s))
                break
        else:
            raise AssertionError("no slot for %s" % it)
    return answer"""
new = """    nvars, cls, x = encode(p)
    model = dpll.solve(nvars, cls)
    if model is None:
        return None
    true = set(lit for lit in model if lit > 0)
    return [(it, s) for it in p.items for s in p.slots if x(it, s) in true]"""
assert s.count(old) == 1, "partial patch does not apply"
s = s.replace(old, new)
open(p, "w").write(s)
p = "/app/cnftool.py"
s = open(p).read()
old = ', "audit": (cmd_audit, 2)}'
assert s.count(old) == 1, "partial patch does not apply"
open(p, "w").write(s.replace(old, "}"))
PY
