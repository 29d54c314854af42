#!/usr/bin/env bash
# Oracle: repair the four client bugs, then install the planning bot.
set -euo pipefail
python3 - <<'PY'
p = "/app/client.py"
s = open(p).read()
for old, new in [
    ('DIRS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}',
     'DIRS = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}'),
    ('Mine(int(f[1]), int(f[2]), int(f[3]), f[4], int(f[6]), int(f[5]))',
     'Mine(int(f[1]), int(f[2]), int(f[3]), f[4], int(f[5]), int(f[6]))'),
    ('            if e["t"] < t:\n', '            if e["t"] <= t:\n'),
    ('e["id"] == mine_id and e["t0"] <= t < e["t1"]', 'e["id"] == mine_id and e["t0"] <= t <= e["t1"]'),
    ('e["type"] == "DEPOTCLOSED" and e["t0"] <= t < e["t1"]', 'e["type"] == "DEPOTCLOSED" and e["t0"] <= t <= e["t1"]'),
]:
    assert s.count(old) == 1, "client patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
install -m 0644 /solution/bot.py /app/bot.py
