#!/usr/bin/env bash
# Lossy shortcut: values every trip at the starting prices, ignoring the scheduled price changes.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('            if k == kind and when <= t:\n',
     '            if False:\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
