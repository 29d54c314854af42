#!/usr/bin/env bash
# Misread rule: breaks ties between equal counts by the pair of token ids (bytes 0-255, then merges in learning order) instead of the pairs' byte sequences.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/train.py"
s = open(p).read()
for old, new in [
    ("        best = min(p for p, c in counts.items() if c == top)\n",
     "        tid = {bytes([i]): i for i in range(256)}\n        for r, (x, y) in enumerate(merges):\n            tid.setdefault(x + y, 256 + r)\n        best = min((p for p, c in counts.items() if c == top), key=lambda p: (tid[p[0]], tid[p[1]]))\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
