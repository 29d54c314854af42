#!/usr/bin/env bash
# Honest partial: the table repaired (reader, label maps, duplicates, logits, gzip names, accuracy
# over all gold ids, macro-F1 over gold classes, AUROC with ties, grouped-threshold AP, ECE bins,
# capped McNemar) but there is no audit command.
set -euo pipefail
for m in labels reader classify ranking calibration significance table; do
  cp "/solution/metrickit/$m.py" "/app/metrickit/$m.py"
done
