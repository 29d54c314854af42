#!/usr/bin/env bash
# Stages 2 and 3 with whatever tool is installed: the legacy database upgraded in place (report in
# /app/results/legacy-report.csv), then an audit of each shipped deployment.
set -euo pipefail
mkdir -p /app/results
python3 /app/upgrade_legacy.py /app/legacy/shop.db /app/legacy/migrations > /app/results/legacy-report.csv || true
for d in /app/deployments/*/; do
  name=$(basename "$d")
  python3 /app/migrate.py audit "$d/app.db" "$d/migrations" > "/app/results/audit-$name.csv" || true
done
