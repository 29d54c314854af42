#!/usr/bin/env bash
set -euo pipefail
cp /solution/solver.py /app/solver.py
