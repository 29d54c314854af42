#!/usr/bin/env bash
# Honest partial: the library is repaired (probabilities, bins, metrics, temperature fit on val
# rows), but the table still evaluates on the wrong rows and there is no claim audit.
set -euo pipefail
install -m 0644 /solution/calib/probs.py /solution/calib/binning.py /solution/calib/metrics.py \
  /solution/calib/temperature.py /app/calib/
python3 - <<'PY'
p = "/app/calibctl.py"
s = open(p).read()
old = '        val = io.read_logits(args.logits)\n'
assert s.count(old) == 1, "partial patch does not apply"
open(p, "w").write(s.replace(old, '        val = io.read_logits(args.logits).select("val")\n'))
PY
