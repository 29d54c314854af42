#!/usr/bin/env bash
# Verifier entry: the grader writes both reward files itself; a crash still leaves zeros.
mkdir -p "${LONGHAUL_VERIFIER_DIR:-/logs/verifier}"
python3 /tests/grade.py || python3 - <<'PY'
import json, os, sys
sys.path.insert(0, "/tests")
from lh import Grader
g = Grader()
g.finish()
PY
