#!/usr/bin/env bash
# Oracle: a self-contained player (consistent guesses chosen by partition size) and the audit.
set -euo pipefail
install -m 0644 /solution/player.py /app/player.py
install -m 0644 /solution/audit.py /app/audit.py
