#!/usr/bin/env bash
# Honest partial: the repairs the three examples point at -- exact glyph matching, y labels paired
# with their own ticks, the colour tolerance, the legend box excluded, the middle of each curve
# run, bar values at the top row -- and the table's six requests. Text is still read at scale 1
# only, every axis is still fitted linearly, and the audit command is not written.
set -euo pipefail
mkdir -p /app/figkit
for f in /solution/figkit/*.py; do install -m 0644 "$f" /app/figkit/; done
install -m 0644 /solution/digitize.py /app/digitize.py
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)


patch("/app/figkit/axes.py", [
    ("    log = not linear and all(v > 0 for v in vals)\n", "    log = False\n"),
    ("    for s in (2, 1):\n", "    for s in (1,):\n"),
])
patch("/app/digitize.py", [
    ('            write(out, audit(src, json.load(f)))\n',
     '            json.load(f)\n        print("audit: not written yet", file=sys.stderr)\n        return 1\n'),
])
PY
python3 /app/digitize.py table /app/paper /app/paper/results.json || true
