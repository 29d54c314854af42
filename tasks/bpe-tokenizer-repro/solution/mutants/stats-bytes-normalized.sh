#!/usr/bin/env bash
# Misread rule: counts the bytes of the normalised text for bytes_per_token instead of the raw documents as stored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/stats.py"
s = open(p).read()
for old, new in [
    ("            n_bytes += len(line.encode(\"utf-8\"))\n",
     "            n_bytes += sum(len(seg.encode(\"utf-8\")) for _, seg in text.segments(line, tok.specials, tok.form))\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
