#!/usr/bin/env bash
# Lossy shortcut: repeated BORA labels (the autumn fall-back hour) are dropped as duplicate rows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/scada.py"
s = open(p).read()
for old, new in [
    ('    for s in lines[1:]:\n        row = dict(zip(header, [c.strip() for c in s.split(";")]))\n',
     '    seen = set()\n    for s in lines[1:]:\n        row = dict(zip(header, [c.strip() for c in s.split(";")]))\n        if row["time_end"] in seen:\n            continue\n        seen.add(row["time_end"])\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
