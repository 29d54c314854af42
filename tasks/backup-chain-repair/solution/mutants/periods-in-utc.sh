#!/usr/bin/env bash
# Misread rule: days, weeks and months of forget are taken in UTC, ignoring the repository's utc_offset_minutes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/cli.py"
s = open(p).read()
for old, new in [
    ('cfg.get("utc_offset_minutes", 0)',
     '0'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
