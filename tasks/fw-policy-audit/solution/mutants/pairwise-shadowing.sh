#!/usr/bin/env bash
# Lossy shortcut: calls a rule shadowed only when one earlier rule covers it alone, missing rules covered by several earlier rules together.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/audit.py"
s = open(p).read()
for old, new in [
    ('        for j in range(i):\n            eff = minus(eff, boxes[j])\n        effective.append(eff)\n        if not eff:\n',
     '        alone = any(not minus(list(boxes[i]), boxes[j]) for j in range(i))\n        for j in range(i):\n            eff = minus(eff, boxes[j])\n        effective.append(eff)\n        if alone:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
