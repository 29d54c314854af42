#!/usr/bin/env bash
set -euo pipefail
cp /solution/heatwave.py /app/heatwave.py
