#!/usr/bin/env bash
set -euo pipefail
cp /solution/ridgecv.py /app/ridgecv.py
