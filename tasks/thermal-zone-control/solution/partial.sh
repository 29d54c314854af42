#!/usr/bin/env bash
# Honest partial: the simulator fully repaired, but identification converts to continuous time with
# Euler's approximation, and the controller only looks one step ahead (no preheating before
# occupancy) and trusts raw sensor readings (a dropout repeats the last reading).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
edits = {
    "/app/identify.py": [
        ("    ac = [[v / dt for v in row] for row in logm2(ad)]\n",
         "    ac = [[(ad[i][j] - (1.0 if i == j else 0.0)) / dt for j in range(2)] for i in range(2)]\n"),
    ],
    "/app/controller.py": [
        ("        horizon = min(len(t_out), len(lower))\n", "        horizon = 1\n"),
        ("        pred = self.advance(self.x, self.last_u)\n", "        pred = list(self.x)\n"),
        ("            pred[0] += GAIN_AIR * (ta - pred[0])\n", "            pred[0] = ta\n"),
        ("            pred[1] += GAIN_MASS * (tm - pred[1])\n", "            pred[1] = tm\n"),
    ],
}
for p, pairs in edits.items():
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)
PY
python3 /app/identify.py /app/data/site/log.csv > /app/site_params.json
