#!/usr/bin/env bash
# Oracle: the repaired loanbook package (cents half-up, terms in years, amendments over the body, due dates from the
# first due date's day, the balloon discounted in the instalment, the instalment after an
# interest-only period and after a rate change over the instalments left, a clearing extra payment
# ends the schedule, total_paid with extras) and the new audit command; then the reports.
set -euo pipefail
mkdir -p /app/loanbook
rm -rf /app/loanbook/__pycache__
cp /solution/loanbook/*.py /app/loanbook/
cp /solution/loan.py /app/loan.py
if [ -d /app/portfolio ] && mkdir -p /app/reports 2>/dev/null; then
  python3 -B /app/loan.py /app/portfolio/contracts /app/reports/portfolio || true
  python3 -B /app/loan.py audit /app/portfolio/contracts /app/portfolio/statements.csv /app/reports/statements-audit.csv || true
fi
