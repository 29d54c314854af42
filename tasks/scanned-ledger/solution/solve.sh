#!/usr/bin/env bash
set -euo pipefail
cp /solution/recover.py /app/recover.py
