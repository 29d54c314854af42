#!/usr/bin/env bash
# Honest partial: reads clean and speckled scans cell by cell, but does not undo skew, splits merged
# section rows along the column rules, and writes no check.json.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/recover.py").read()
for old, new in [
    ("    ink = unshear(ink, find_skew(ink))\n", ""),
    ("            while k + 1 < ncol and not all(present[x] for x in range(*vrules[k + 1])):\n", "            while False:\n"),
    ('    with open(os.path.join(sys.argv[2], "check.json"), "w") as f:\n', "    if False:\n"),
]:
    assert s.count(old) == 1, old
    s = s.replace(old, new)
open("/app/recover.py", "w").write(s)
PY
