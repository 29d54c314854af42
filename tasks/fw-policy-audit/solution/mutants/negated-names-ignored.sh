#!/usr/bin/env bash
# Unhandled edge case: negates address literals (!10.0.0.0/8) but reads a negated object or group name (!internal) as the name itself.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fwaudit/config.py"
s = open(p).read()
for old, new in [
    ('        if tok.startswith("!"):\n            return complement(self.address(tok[1:], seen), TOP_IP)\n',
     '        if tok.startswith("!") and tok[1:2].isdigit():\n            return complement(self.address(tok[1:], seen), TOP_IP)\n        tok = tok.lstrip("!")\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
