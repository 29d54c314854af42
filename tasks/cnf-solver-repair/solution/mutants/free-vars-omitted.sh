#!/usr/bin/env bash
# Unhandled edge case: the model lists only the variables the search assigned, leaving out variables that occur in no clause.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/dpll.py"
s = open(p).read()
for old, new in [
    ('''    return [v if assign.get(v, False) else -v for v in range(1, nvars + 1)]''',
     '''    return [v if assign[v] else -v for v in sorted(assign)]'''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
