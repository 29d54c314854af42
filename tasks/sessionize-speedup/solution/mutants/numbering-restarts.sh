#!/usr/bin/env bash
# Lossy shortcut: the saved state keeps the session counters of users with an open session only, so a user returning after a closed session is numbered from 1 again.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fast_sessionize.py"
s = open(p).read()
for old, new in [
    ('            json.dump({"counters": counters, "open": open_}, f, ensure_ascii=False)\n',
     '            json.dump({"counters": {u: counters[u] for u in open_}, "open": open_}, f, ensure_ascii=False)\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
