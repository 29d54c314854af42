#!/usr/bin/env bash
# Oracle: the repaired tool (numeric version order, checksums over normalised text, one transaction
# per script with nothing recorded on failure, repeatables after versioned ones by their latest
# row, inclusive --target, down keeping its target, baseline version not run, the audit's five
# codes), the legacy upgrade script, and the audits of the shipped deployments (run-project.sh;
# skipped when SKIP_PROJECT=1).
set -euo pipefail
mkdir -p /app/migrator
for f in /solution/migrator/*.py; do install -m 0644 "$f" /app/migrator/; done
install -m 0755 /solution/migrate.py /app/migrate.py
install -m 0755 /solution/upgrade_legacy.py /app/upgrade_legacy.py
if [ "${SKIP_PROJECT:-0}" != 1 ]; then
  bash /solution/run-project.sh
fi
