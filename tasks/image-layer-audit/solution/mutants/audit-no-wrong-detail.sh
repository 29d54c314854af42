#!/usr/bin/env bash
# Misread rule: the audit never pairs a wrong finding with the right one (WRONG_DETAIL) and lists them as one MISSED and one SPURIOUS row.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/audit.py"
s = open(p).read()
for old, new in [
    ('        if len(want) == 1 and len(got) == 1:\n', '        if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
