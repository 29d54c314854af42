#!/usr/bin/env bash
# Honest partial: the repaired package answers queries, and audit reports policy violations and
# the changes between snapshots, but not yet shadowed or redundant rules (both lists left empty).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/audit.py"
s = open(p).read()
old = "    for i, r in enumerate(rules):\n        eff = list(boxes[i])\n"
new = "    for i, r in enumerate(rules):\n        eff = list(boxes[i])\n        if True:\n            effective.append(minus(eff, [b for j in range(i) for b in boxes[j]]))\n            continue\n"
assert s.count(old) == 1, "partial patch does not apply"
open(p, "w").write(s.replace(old, new))
PY
