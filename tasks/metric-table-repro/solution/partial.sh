#!/usr/bin/env bash
# Honest partial: clean inputs only (canonical columns, no label maps, no gzip) and no McNemar test.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/repro.py").read()
s = s.replace('ID = ["id", "example_id", "uid", "ex_id"]', 'ID = ["id"]')
s = s.replace('PRED = ["pred", "prediction", "y_pred", "label_pred"]', 'PRED = ["pred"]')
s = s.replace('            lmap = {norm(k)', '            lmap = {} or {norm(k)').replace("        lmap = {}\n        if os.path", "        lmap = {}\n        if False and os.path")
s = s.replace('if base and mo != base and base in correct:', 'if False:')
open("/app/repro.py", "w").write(s)
PY
