#!/usr/bin/env bash
# Unhandled edge case: never compares the number of clauses read with the count on the problem line.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/cnfkit/dimacs.py"
s = open(p).read()
for old, new in [
    ('''    if len(clauses) != header[1]:
        raise Malformed("header says %d clauses, found %d" % (header[1], len(clauses)))
''', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
