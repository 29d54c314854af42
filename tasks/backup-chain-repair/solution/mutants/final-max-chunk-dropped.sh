#!/usr/bin/env bash
# Edge case: the last byte of a file never ends a chunk in the scan loop and the tail flush skips a remainder of exactly the maximum size, so a final 1024-byte chunk is dropped.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snapkit/chunker.py"
s = open(p).read()
for old, new in [
    ('        if length >= MAX_SIZE or (length >= MIN_SIZE and (h & MASK) == 0):',
     '        if i + 1 < n and (length >= MAX_SIZE or (length >= MIN_SIZE and (h & MASK) == 0)):'),
    ('    if start < n:\n        cuts.append(n)',
     '    if 0 < n - start < MAX_SIZE:\n        cuts.append(n)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
