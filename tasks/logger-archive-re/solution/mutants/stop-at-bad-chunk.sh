#!/usr/bin/env bash
# Unhandled edge case: stops decoding at the first chunk that fails its check instead of skipping it and reading on.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/kla.py"
s = open(p).read()
for old, new in [
    ('            bad.append({"index": index, "tag": tag})\n            continue\n',
     '            bad.append({"index": index, "tag": tag})\n            break\n'),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
