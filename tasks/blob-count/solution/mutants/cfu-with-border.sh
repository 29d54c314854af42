#!/usr/bin/env bash
# Misread rule: the CFU adds the colonies cut by the border to the listed ones.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/colony/plates.py"
s = open(p).read()
for old, new in [
    ('    cfu = str(colonies * plate["dilution"]) if status == "OK" else ""\n', '    cfu = str((colonies + table["border_count"]) * plate["dilution"]) if status == "OK" else ""\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
