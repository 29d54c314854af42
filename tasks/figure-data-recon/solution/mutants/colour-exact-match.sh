#!/usr/bin/env bash
# Lossy shortcut: a pixel belongs to a series only when its colour equals the swatch's mean colour rounded, ignoring the 24-level tolerance of re-quantised charts.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/series.py"
s = open(p).read()
for old, new in [
    ('    return all(abs(c[k] - colour[k]) <= COLOUR_TOL for k in range(3))\n',
     '    return all(c[k] == round(colour[k]) for k in range(3))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
