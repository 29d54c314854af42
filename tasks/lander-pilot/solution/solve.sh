#!/usr/bin/env bash
set -euo pipefail
cp /solution/pilot.py /app/pilot.py
