#!/usr/bin/env bash
# Verifier entry: the grader writes both reward files itself; a crash still leaves zeros.
# Python runs isolated (-I): no user site-packages, no PYTHON* variables, no current folder on
# sys.path, so nothing left in the agent's home or workdir is imported.
mkdir -p "${LONGHAUL_VERIFIER_DIR:-/logs/verifier}"
python3 -I /tests/grade.py
rc=$?
# 86: the sealed runner could not isolate the agent's program; no reward, a grading error.
if [ "$rc" = 86 ]; then
  echo "grading stopped: the sealed runner failed (see above)" >&2
  exit 86
fi
# 87: the grader's own hidden-case generator failed; no reward, a grading error.
if [ "$rc" = 87 ]; then
  echo "grading stopped: the hidden-case generator failed (see above)" >&2
  exit 87
fi
[ "$rc" = 0 ] || python3 -I - <<'PY'
import sys
sys.path.insert(0, "/tests")
from lh import Grader
g = Grader()
g.finish()
PY
