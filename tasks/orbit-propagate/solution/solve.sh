#!/usr/bin/env bash
set -euo pipefail
cp /solution/kepler.py /solution/propagate.py /app/
