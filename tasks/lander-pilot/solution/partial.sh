#!/usr/bin/env bash
# Honest partial: a plain proportional pilot — trusts raw sensor values (no filtering, no handling of
# dropouts), no wind estimate, and a slow, fuel-hungry descent.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/pilot.py").read()
s = s.replace("        if est is None:\n            if any", "        est = None\n        dist = 0.0\n        if est is None:\n            if False and any")
s = s.replace("vy_des = -clamp(0.25 * y + 0.6, 0.9, 9.0)", "vy_des = -clamp(0.1 * y + 0.6, 0.9, 4.0)")
open("/app/pilot.py", "w").write(s)
PY
