#!/usr/bin/env bash
# Lossy shortcut: parses numeric modes like 0755 with int() as decimal instead of octal.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/audit.py"
s = open(p).read()
for old, new in [
    ('        return {"f": "-", "d": "d", "l": "l"}[t], int(o, 8)\n',
     '        return {"f": "-", "d": "d", "l": "l"}[t], int(o)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
