#!/usr/bin/env bash
# Misread rule: matches the bot words case-sensitively, so AhrefsBot or SiteCrawler count as users.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/bots.py"
s = open(p).read()
for old, new in [
    ('ua = (user_agent or "").lower()', 'ua = user_agent or ""'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
