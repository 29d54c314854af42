#!/usr/bin/env bash
# Lossy shortcut: encodes by merging the leftmost adjacent pair that is a learned merge, instead of the pair of lowest rank.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/tok/encode.py"
s = open(p).read()
for old, new in [
    ("        for a, b in self.merges:\n            if len(sym) < 2:\n                break\n            if a not in sym:\n                continue\n            out = []\n            i = 0\n            n = len(sym)\n            while i < n:\n                if i + 1 < n and sym[i] == a and sym[i + 1] == b:\n                    out.append(a + b)\n                    i += 2\n                else:\n                    out.append(sym[i])\n                    i += 1\n            sym = out\n",
     "        known = set(self.merges)\n        i = 0\n        while i < len(sym) - 1:\n            if (sym[i], sym[i + 1]) in known:\n                sym[i:i + 2] = [sym[i] + sym[i + 1]]\n                i = 0\n            else:\n                i += 1\n"),
]:
    # A patch that no longer applies would leave the reference program: fail loudly instead.
    assert s.count(old) == 1, "mutant patch does not apply: %r" % old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
