#!/usr/bin/env bash
# Misread rule: takes 'greater A B' as A < B, like 'less'.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gridkit/parser.py"
s = open(p).read()
for old, new in [
    ('            lesses.append(Less(a, b) if key == "less" else Less(b, a))',
     '            lesses.append(Less(a, b))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
