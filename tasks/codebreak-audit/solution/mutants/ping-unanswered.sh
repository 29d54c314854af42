#!/usr/bin/env bash
# Unhandled edge case: skips PING lines like INFO chatter instead of answering PONG, so the chatty referee ends the game.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        # A patch that no longer applies would leave the reference program: fail loudly instead.
        assert s.count(old) == 1, "mutant patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/player.py", [('        if word == "INFO":', '        if word in ("INFO", "PING"):')])
PY
