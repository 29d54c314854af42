#!/usr/bin/env bash
# Oracle: the repaired hostaudit package (the refactor's broken import, gzip listings, S/T special
# bits, symlinks, sshd first-value-wins / relative Include / per-file Match, sudoers includedir
# names and tag inheritance, passwd comment lines, locked shadow fields) with the fleet summary and
# the remediation plan.
set -euo pipefail
mkdir -p /app/hostaudit
for f in /solution/hostaudit/*.py; do install -m 0644 "$f" /app/hostaudit/; done
install -m 0644 /solution/hostaudit.py /app/hostaudit.py
