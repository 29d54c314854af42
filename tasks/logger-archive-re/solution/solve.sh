#!/usr/bin/env bash
# Oracle: the decoder (both formats, CRC check, truncation) and the format-1 writer in one file.
set -euo pipefail
install -m 0644 /solution/kla.py /app/kla.py
