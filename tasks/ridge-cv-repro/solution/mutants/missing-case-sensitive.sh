#!/usr/bin/env bash
# Format slip: compares missing tokens case-sensitively, so N/A, Null and NAN count as values (or crash the parse).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/ridgekit/reader.py"
s = open(p).read()
for old, new in [
    ('return cell is None or cell.strip().lower() in MISSING',
     'return cell is None or cell.strip() in MISSING'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
