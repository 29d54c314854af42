#!/bin/bash
# Verifier entry: tests/grade.py on the verifier kit tests/lh.py (refresh it with
# `longhaul task kit-update`). Python runs isolated (-I): nothing in the agent's home or
# workdir is imported.
mkdir -p "${LONGHAUL_VERIFIER_DIR:-/logs/verifier}"
python3 -I /tests/grade.py
rc=$?
# 86: the sealed runner could not isolate the agent's program; 87: the grader's own hidden-case
# generator failed. Either is a grading error: no reward file.
if [ "$rc" = 86 ] || [ "$rc" = 87 ]; then
  exit "$rc"
fi
# A crash of the grader still leaves a score of 0 for every subtask.
[ "$rc" = 0 ] || python3 -I -c 'import sys; sys.path.insert(0, "/tests"); import lh; lh.Grader().finish()'
