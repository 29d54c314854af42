#!/usr/bin/env bash
# Lossy shortcut: judges the answers only against the revealed (or solved) code, so a lie is reported at its own turn even while other codes still fit.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/audit.py"
s = open(p).read()
old = "def audit(game):\n"
new = '''def audit(game):
    verdict, turn, remaining = full_audit(game)
    pegs = int(game["pegs"])
    final = game["reveal"]
    if game["turns"] and game["turns"][-1][2] == pegs:
        final = game["turns"][-1][1]
    scorer = Scorer(pegs, game["colors"])
    if final is None or len(final) != pegs or any(ch not in scorer.index for ch in final):
        return verdict, turn, remaining
    for t, guess, e, n in game["turns"]:
        if len(guess) == pegs and scorer.mark(final, guess, scorer.hist(guess)) != (e, n):
            return ("bad_reveal" if game["reveal"] is not None else "inconsistent"), t, remaining
    return verdict, turn, remaining


def full_audit(game):
'''
# A patch that no longer applies would leave the reference program: fail loudly instead.
assert s.count(old) == 1, "mutant patch does not apply: %r" % old
open(p, "w").write(s.replace(old, new))
PY
