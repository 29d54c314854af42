#!/usr/bin/env bash
# Honest partial: stages 1 and 2 only. The trajkit modules and the driver's two defects (run-level
# clock offsets, monocular-only scale) are repaired, so results.csv is right, but the audit was
# never written: no audit.csv.
set -euo pipefail
cp /solution/trajio.py /solution/geometry.py /solution/linalg.py /solution/associate.py \
   /solution/align.py /solution/metrics.py /app/trajkit/
python3 - <<'PY'
p = "/app/evaluate.py"
s = open(p).read()
for old, new in [
    ('    offset = system.get("clock_offset_s", 0.0)\n',
     '    offset = run.get("clock_offset_s", system.get("clock_offset_s", 0.0))\n'),
    ('SIM3_SENSORS = ("mono",)\n', 'SIM3_SENSORS = ("monocular",)\n'),
]:
    assert s.count(old) == 1, "partial patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
