#!/usr/bin/env bash
# Oracle: the repaired payroll package (the run entry point, weekly overtime without double counting,
# night hours across midnight rounded on the period total, working-day proration, pension cap
# against the calendar year's contributions, progressive brackets, retro pay at the supplemental
# rate, shortfalls carried forward) and the new audit command.
set -euo pipefail
mkdir -p /app/payroll
cp /solution/payroll/*.py /app/payroll/
cp /solution/payrun.py /app/payrun.py
