#!/usr/bin/env bash
# Honest partial: bound (elliptic) orbits only and no time-unit conversion; hyperbolic bodies are
# reported as null.
set -euo pipefail
cp /solution/propagate.py /app/
python3 - <<'PY'
s = open("/solution/kepler.py").read()
s = s.replace("        scale = TIME[tu] / TIME[b.get(\"time_unit\", \"s\")]\n", "        scale = 1.0\n")
s = s.replace("    if dt == 0:\n", "    else:\n        return None\n    if dt == 0:\n")
open("/app/kepler.py", "w").write(s)
PY
