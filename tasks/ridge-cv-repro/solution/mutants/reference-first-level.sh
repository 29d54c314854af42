#!/usr/bin/env bash
# Misread rule: takes the smallest level in string order as the reference level instead of the most frequent one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/prep.py"
s = open(p).read()
for old, new in [
    ('    return min(counts, key=lambda lv: (-counts[lv], lv))',
     '    return min(counts)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
