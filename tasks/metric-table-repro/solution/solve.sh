#!/usr/bin/env bash
# Oracle: the repaired metrickit package (reader, label maps, duplicates, logits, gzip names,
# accuracy over all gold ids, macro-F1 over gold classes, AUROC with ties, grouped-threshold AP,
# ECE bins with p = 1 in the last bin, capped McNemar) and the audit command.
set -euo pipefail
mkdir -p /app/metrickit
cp /solution/metrickit/*.py /app/metrickit/
cp /solution/repro.py /app/repro.py
