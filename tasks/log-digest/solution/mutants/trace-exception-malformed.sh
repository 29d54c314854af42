#!/usr/bin/env bash
# Unhandled edge case: the exception line that ends a stack trace is counted as a malformed line.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/parsers.py"
s = open(p).read()
for old, new in [
    ('            if line.strip():\n                continue  # the exception line closes the trace\n', ''),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
