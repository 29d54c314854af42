#!/usr/bin/env bash
set -euo pipefail
cp /solution/stationqc.py /app/stationqc.py
