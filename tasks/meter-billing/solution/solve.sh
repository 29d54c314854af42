#!/usr/bin/env bash
set -euo pipefail
cp /solution/bill.py /app/bill.py
