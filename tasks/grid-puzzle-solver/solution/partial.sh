#!/usr/bin/env bash
# Honest partial: a correct classic solver for any box shape that ignores cages and inequalities.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/solver.py").read()
s = s.replace('    for k, cg in enumerate(pz.get("cages", [])):', '    for k, cg in enumerate([]):')
s = s.replace('    for (a, b) in pz.get("less_than", []):', '    for (a, b) in []:')
open("/app/solver.py", "w").write(s)
PY
