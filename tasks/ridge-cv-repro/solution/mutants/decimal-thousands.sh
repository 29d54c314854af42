#!/usr/bin/env bash
# Format slip: reads a comma in a number as a thousands separator (drops it) instead of a decimal comma.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/reader.py"
s = open(p).read()
for old, new in [
    ('return float(cell.strip().replace(",", "."))',
     'return float(cell.strip().replace(",", ""))'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
