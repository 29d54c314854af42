#!/usr/bin/env bash
# Oracle: pre-tokens kept apart in training, non-overlapping pair counts, ties to the smallest byte
# pair, rank-order merging at encode time, normalisation on both sides, longest special first,
# UTF-8 byte counts in the table, and the release audit.
set -euo pipefail
install -m 0644 /solution/tok/__init__.py /solution/tok/text.py /solution/tok/train.py /solution/tok/encode.py \
  /solution/tok/stats.py /solution/tok/vocabio.py /solution/tok/audit.py /app/tok/
install -m 0644 /solution/tokctl.py /app/tokctl.py
mkdir -p /app/paper
python3 /app/tokctl.py stats /app/paper/config.json /app/paper/table.csv
python3 /app/tokctl.py audit /app/releases /app/releases/audit.csv
