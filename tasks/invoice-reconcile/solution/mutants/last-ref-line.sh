#!/usr/bin/env bash
# Unhandled edge case: keeps only the last :REF: line of a tagged statement entry, so a reference split over two lines loses its first part.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/arrecon/statements.py"
s = open(p).read()
for old, new in [
    ('            cur["refs"].append(value)\n', '            cur["refs"] = [value]\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
