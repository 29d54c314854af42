#!/usr/bin/env bash
set -euo pipefail
cp /solution/logdigest.py /app/logdigest.py
