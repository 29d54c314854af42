#!/usr/bin/env bash
# Misread rule: weighted-F1 weights classes by predicted counts instead of gold support.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/classify.py"
s = open(p).read()
for old, new in [
    ('    for g, _ in pairs:\n        support[g] = support.get(g, 0) + 1',
     '    for _, p in pairs:\n        support[p] = support.get(p, 0) + 1'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
