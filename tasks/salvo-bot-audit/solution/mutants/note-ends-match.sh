#!/usr/bin/env bash
# Unhandled edge case: the client reads a NOTE line as the end of the match, so the bot stops playing.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = '/app/salvo/client.py'
s = open(p).read()
for old, new in [
    ('if not words or words[0] in ("NOTE", "HELLO"):',
     'if not words or words[0] == "HELLO":'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
