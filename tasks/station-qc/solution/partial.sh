#!/usr/bin/env bash
# Honest partial: column aliases and missing tokens, but no unit conversion, no # tz handling and
# no de-duplication of overlapping files.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/stationqc.py").read()
s = s.replace("def to_c(v, u):\n", "def to_c(v, u):\n    return v\n")
s = s.replace('tz = parse_tz(meta.get("tz", "UTC"))', 'tz = timezone.utc')
s = s.replace("        if t in lst:\n            continue\n", "        while t in lst:\n            t = t + timedelta(microseconds=1)\n")
open("/app/stationqc.py", "w").write(s)
PY
