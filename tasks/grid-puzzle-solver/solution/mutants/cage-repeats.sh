#!/usr/bin/env bash
# Misread rule: a killer cage only has to meet its sum; its digits may repeat.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ("/app/gridkit/propagate.py", '                if d in used:\n                    continue\n', ''),
    ("/app/gridkit/rules.py", '    if len(set(vals)) != len(vals):\n        return False\n    empty', '    empty'),
]:
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    open(p, "w").write(s.replace(old, new))
PY
