#!/usr/bin/env bash
# Oracle: the lease toolkit written to the firm's guideline -- three drafting styles, amendments by
# date (also those signed before the term starts), compounded uplifts, business-day notices, the
# rent roll, critical dates and the inconsistency audit.
set -euo pipefail
install -m 0644 /solution/leasekit.py /app/leasekit.py
