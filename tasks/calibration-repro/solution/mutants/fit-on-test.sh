#!/usr/bin/env bash
# Misread rule: fits the temperature on the test rows (the split the metrics are reported on) instead of the validation rows.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
for p, old, new in [
    ("/app/calib/table.py", 'temperature.fit(rows.select("val"))', 'temperature.fit(rows.select("test"))'),
    ("/app/calibctl.py", 'val = io.read_logits(args.logits).select("val")\n        tt = temperature.fit(val)',
     'val = io.read_logits(args.logits).select("val")\n        tt = temperature.fit(io.read_logits(args.logits).select("test"))'),
    ("/app/calib/audit.py", 'abs(t - cache.temp(rel, "val")) > T_TOL', 'abs(t - cache.temp(rel, "test")) > T_TOL'),
]:
    s = open(p).read()
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    open(p, "w").write(s.replace(old, new))
PY
