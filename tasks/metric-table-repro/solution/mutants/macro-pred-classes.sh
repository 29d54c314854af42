#!/usr/bin/env bash
# Misread rule: macro-F1 averages over gold and predicted classes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/classify.py"
s = open(p).read()
for old, new in [
    ('def macro_f1(pairs):\n    f = per_class_f1(pairs, gold_classes(pairs))',
     'def macro_f1(pairs):\n    f = per_class_f1(pairs, sorted({g for g, _ in pairs} | {p for _, p in pairs if p is not None}))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
