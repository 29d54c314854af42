#!/usr/bin/env bash
# Honest partial: parses every phrasing and amendment but computes plain fixed-rate annuities
# only — ignores rate changes, interest-only
# periods, extra payments and balloons.
set -euo pipefail
cp /solution/loan.py /app/loan.py
python3 - <<'PY'
s = open("/solution/loan_core.py").read()
s = s.replace('    bal, rate, n, balloon = t["principal"], t["rate"], t["n"], t["balloon"]\n    io = t.get("io", 0)\n',
              '    bal, rate, n, balloon = t["principal"], t["rate"], t["n"], Decimal("0.00")\n    io = 0\n    t = dict(t, changes={}, extras={})\n')
open("/app/loan_core.py", "w").write(s)
PY
