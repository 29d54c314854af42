#!/usr/bin/env bash
set -euo pipefail
cp /solution/blobs.py /app/blobs.py
