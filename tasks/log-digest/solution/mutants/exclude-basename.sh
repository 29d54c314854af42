#!/usr/bin/env bash
# Misread rule: matches exclude patterns against the file name only, so archive/* never excludes anything.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/digest/sources.py"
s = open(p).read()
for old, new in [
    ('fnmatch.fnmatchcase(p, pat)', 'fnmatch.fnmatchcase(posixpath.basename(p), pat)'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
