#!/usr/bin/env bash
# Oracle: the DIMACS reader per SPEC (comments anywhere, clauses across and within lines, the `%`
# terminator, header and range checks), DPLL with purity over open clauses, a full trail undo and
# complete models, the cardinality encodings with their edge cases, the puzzle parser and encoder
# with lexicographic decoding (the tie rule), and an `audit` command; the broken import repaired.
set -euo pipefail
mkdir -p /app/cnfkit
for f in /solution/cnfkit/*.py; do
  install -m 0644 "$f" /app/cnfkit/
done
install -m 0644 /solution/cnftool.py /app/cnftool.py
