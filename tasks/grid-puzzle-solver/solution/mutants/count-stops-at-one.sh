#!/usr/bin/env bash
# Lossy shortcut: stops the search at the first solution, so no puzzle is ever MULTIPLE.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/search.py"
s = open(p).read()
for old, new in [
    ('    found = search(puzzle, limit=2)',
     '    found = search(puzzle, limit=1)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
