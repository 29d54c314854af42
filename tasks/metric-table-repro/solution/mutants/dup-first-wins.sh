#!/usr/bin/env bash
# Misread rule: a duplicated id keeps its first row instead of the last.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/metrickit/reader.py"
s = open(p).read()
for old, new in [
    ('        out[norm(r[i])] = (apply_map(r[j], mapping), prob)  # the last row of an id wins\n',
     '        out.setdefault(norm(r[i]), (apply_map(r[j], mapping), prob))\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
