#!/usr/bin/env bash
# Misread rule: the last point's power is held to infinity instead of to the cut-out speed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/windkit/aep.py"
s = open(p).read()
for old, new in [
    ('    total += (F(cut_out) - F(prev_v)) * prev_p\n',
     '    total += (1.0 - F(prev_v)) * prev_p\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
