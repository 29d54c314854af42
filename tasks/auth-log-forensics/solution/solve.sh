#!/usr/bin/env bash
# Oracle: the repaired parser (year inference, offsets, gzip rotations, journald byte messages,
# stream order, addresses, sshd variants, sessions per pid) plus the timeline and alerts commands.
set -euo pipefail
mkdir -p /app/irkit
install -m 0644 /solution/irkit/*.py /app/irkit/
install -m 0644 /solution/irkit.py /app/irkit.py
