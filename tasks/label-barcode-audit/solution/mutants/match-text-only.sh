#!/usr/bin/env bash
# Misread rule: matches scans to manifest lines and log entries by code text alone, ignoring the symbology.
set -euo pipefail
bash /solution/solve.sh
rm -f /app/batch/reconcile.json /app/batch/audit.json
python3 - <<'PY'
p = "/app/scankit/batch.py"
s = open(p).read()
for old, new in [
    ('            counts.setdefault((res["symbology"], res["text"]), []).append(name)\n',
     '            counts.setdefault((res["symbology"], res["text"]), []).append(name)\n    for m in manifest:\n        alias = [k for k in counts if k[1] == m["key"][1] and k != m["key"]]\n        for k in alias:\n            counts.setdefault(m["key"], []).extend(counts.pop(k))\n'),
    ('            if (sym, norm_code(sym, r["code"])) != key:\n',
     '            if norm_code(key[0], r["code"]) != key[1]:\n'),
    ('            elif key not in known:\n', '            elif key[1] not in {k[1] for k in known}:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
rm -rf /app/scankit/__pycache__
python3 /app/labelscan.py reconcile /app/batch /app/batch/reconcile.json || true
python3 /app/labelscan.py audit /app/batch /app/batch/audit.json || true
