#!/usr/bin/env bash
set -euo pipefail
cp /solution/audit.py /app/audit.py
