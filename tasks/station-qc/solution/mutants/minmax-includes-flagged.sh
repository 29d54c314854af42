#!/usr/bin/env bash
# Misread rule: daily min and max are taken over every non-missing value, flagged ones included.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ('qckit/daily.py',
     '        d = days.setdefault(timeutil.utc_date(t), {"values": [], "month": timeutil.utc_month(t),\n',
     '        d = days.setdefault(timeutil.utc_date(t), {"values": [], "seen": [], "month": timeutil.utc_month(t),\n'),
    ('qckit/daily.py',
     '        if flag == qc.VALID:\n            d["values"].append(value)\n',
     '        if value is not None:\n            d["seen"].append(value)\n        if flag == qc.VALID:\n            d["values"].append(value)\n'),
    ('qckit/daily.py',
     '                    "min_c": round2(min(vals)) if vals else None,\n                    "max_c": round2(max(vals)) if vals else None, "anomaly_c": anomaly})\n',
     '                    "min_c": round2(min(d["seen"])) if vals else None,\n                    "max_c": round2(max(d["seen"])) if vals else None, "anomaly_c": anomaly})\n'),
]:
    p = "/app/" + p
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
    open(p, "w").write(s)
PY
