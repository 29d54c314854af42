#!/usr/bin/env bash
set -euo pipefail
cp /solution/repro.py /app/repro.py
