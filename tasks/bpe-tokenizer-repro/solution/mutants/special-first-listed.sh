#!/usr/bin/env bash
# Unhandled edge case: matches special tokens in config order, so a token listed before a longer one it is a prefix of wins.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/text.py"
s = open(p).read()
for old, new in [
    ("    ordered = sorted((s for s in specials if s), key=len, reverse=True)\n", "    ordered = [s for s in specials if s]\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
