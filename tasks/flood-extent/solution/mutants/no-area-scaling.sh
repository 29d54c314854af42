#!/usr/bin/env bash
# Lossy shortcut: converts pixel counts to hectares as 10 m pixels (0.01 ha), whatever the geotransform's pixel size.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/floodkit/analysis.py"
s = open(p).read()
for old, new in [
    ('        ha = area / 10000.0\n',
     '        ha = 0.01\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
