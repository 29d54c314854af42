#!/usr/bin/env bash
# Oracle: the repaired package (rounding, parser, period end, rate lookup, CLI wiring) with the
# three commands: report, revalue and audit.
set -euo pipefail
mkdir -p /app/ledgerkit
cp /solution/ledgerkit/*.py /app/ledgerkit/
cp /solution/ledgerctl.py /app/ledgerctl.py
