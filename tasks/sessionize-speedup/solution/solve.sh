#!/usr/bin/env bash
set -euo pipefail
cp /solution/fast_sessionize.py /app/fast_sessionize.py
