#!/usr/bin/env bash
set -euo pipefail
cp /solution/loan.py /solution/loan_core.py /app/
