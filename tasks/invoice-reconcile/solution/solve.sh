#!/usr/bin/env bash
set -euo pipefail
cp /solution/reconcile.py /app/reconcile.py
