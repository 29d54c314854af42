#!/usr/bin/env bash
# Unhandled edge case: does not count ore another truck is already heading for, so trucks race to the same small mine.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/bot.py"
s = open(p).read()
for old, new in [
    ('        return sum(p["reserve"]',
     '        return 0 * sum(p["reserve"]'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
