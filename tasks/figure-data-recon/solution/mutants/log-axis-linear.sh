#!/usr/bin/env bash
# Lossy shortcut: fits every axis linearly through its tick values, so a logarithmic axis is interpolated linearly between its powers of ten.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/axes.py"
s = open(p).read()
for old, new in [
    ('    log = not linear and all(v > 0 for v in vals)\n', '    log = False\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
