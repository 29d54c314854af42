#!/usr/bin/env bash
# Off-by-one: splits the revision at the first hyphen instead of the last, so an upstream version with a hyphen is compared wrongly.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/layerscan/debver.py"
s = open(p).read()
for old, new in [
    ('upstream, revision = v.rsplit("-", 1)', 'upstream, revision = v.split("-", 1)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
find /app -name __pycache__ -prune -exec rm -rf {} +
