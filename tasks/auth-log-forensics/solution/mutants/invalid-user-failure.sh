#!/usr/bin/env bash
# Misread rule: counts sshd 'Invalid user' lines as failed logins (each probe of an unknown user is then counted twice).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/irkit/events.py"
s = open(p).read()
for old, new in [
    ('        m = FAILED.match(msg)\n        if m:\n            return Event("fail"', '        m = FAILED.match(msg) or re.match(r"^Invalid user (?P<user>\\S+) from " + ADDR + r"(?: port (?P<port>\\d+))?(?P<method>)$", msg)\n        if m:\n            return Event("fail"'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
