#!/usr/bin/env bash
# Unhandled edge case: an access-log line with '-' for its byte count is treated as malformed.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/parsers.py"
s = open(p).read()
for old, new in [
    ('(\\d{3}) (\\d+|-) "', '(\\d{3}) (\\d+) "'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
