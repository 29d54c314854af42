#!/usr/bin/env bash
# Off-by-one: a gap of exactly 1800 s starts a new session (the legacy program needs more than 1800 s).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('            if e[0] - cur[-1][0] > GAP:\n',
     '            if e[0] - cur[-1][0] >= GAP:\n'),
    ('        if s is not None and ts - s[2] > GAP:\n',
     '        if s is not None and ts - s[2] >= GAP:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
