#!/usr/bin/env bash
# Misread rule: reads 'before A B' like 'after A B' (A later than B), reversing every before precedence.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ttlib/lang.py"
s = open(p).read()
for old, new in [
    ('            inst.after.append((a, b) if key == "after" else (b, a))\n',
     '            inst.after.append((a, b))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
