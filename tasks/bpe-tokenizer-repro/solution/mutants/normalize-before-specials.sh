#!/usr/bin/env bash
# Misread rule: normalises the whole document before cutting it at special tokens, so text that NFKC turns into a special token becomes one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/text.py"
s = open(p).read()
for old, new in [
    ("    return [(sp, piece if sp else normalize(piece, form)) for sp, piece in split_specials(line, specials)]\n",
     "    return list(split_specials(normalize(line, form), specials))\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
