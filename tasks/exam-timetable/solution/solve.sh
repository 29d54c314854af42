#!/usr/bin/env bash
# Oracle: the repaired parser (comments, continuations, keyword case, statement order, repeated
# student lines, `before`, day lists, the default daily limit), the rules with their codes and an
# `audit` command, and an annealing search over slots with rooms packed per slot.
set -euo pipefail
mkdir -p /app/ttlib
for f in /solution/ttlib/*.py; do
  install -m 0644 "$f" /app/ttlib/
done
install -m 0644 /solution/examtt.py /app/examtt.py
