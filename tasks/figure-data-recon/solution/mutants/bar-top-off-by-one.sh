#!/usr/bin/env bash
# Off-by-one: reads a bar's value at the first paper row above the bar instead of its own top row.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/paper/results.json /app/paper/audit.json
python3 - <<'PY'
p = "/app/figkit/series.py"
s = open(p).read()
for old, new in [
    ('        bars.append((min(p[0] for p in comp), min(p[1] for p in comp)))\n',
     '        bars.append((min(p[0] for p in comp), min(p[1] for p in comp) - 1))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
python3 /app/digitize.py audit /app/paper /app/paper/audit.json || true
