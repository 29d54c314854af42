#!/usr/bin/env bash
# Lossy shortcut: commits to the first fitting candidate of each package and never backtracks.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pkgsolve/resolver.py"
s = open(p).read()
for old, new in [
    ('            if search():\n                return True\n', '            return search()\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
