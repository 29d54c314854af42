#!/usr/bin/env bash
# Oracle: the repaired package (prerelease precedence, caret on 0.x, partial hyphen ends, the
# prerelease rule, yank events, candidate order, backtracking with back-edge checks, lockfile
# dependency versions) plus the audit command.
set -euo pipefail
mkdir -p /app/pkgsolve
cp /solution/pkgsolve/*.py /app/pkgsolve/
cp /solution/pkgsolve.py /app/pkgsolve.py
