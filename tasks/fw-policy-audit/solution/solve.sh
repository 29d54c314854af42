#!/usr/bin/env bash
# Oracle: the repaired fwaudit package (rule order by number, inclusive port ranges, prefixes with
# host bits, negated and nested names, repeated group lines, inactive rules, NAT, includes relative
# to the including file, case-insensitive actions) and the audit command (region algebra).
set -euo pipefail
mkdir -p /app/fwaudit
cp /solution/fwaudit/*.py /app/fwaudit/
cp /solution/fwctl.py /app/fwctl.py
