#!/usr/bin/env bash
# Misread rule (the handover notes' rule): near counts every non-exact guess peg whose colour occurs among the secret's non-exact pegs, ignoring multiplicity.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        # A patch that no longer applies would leave the reference program: fail loudly instead.
        assert s.count(old) == 1, "mutant patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/player.py", [(
    '''        ha = self.counts.get(a) or self.histogram(a)
        hb = hb or self.counts.get(b) or self.histogram(b)
        common = 0
        for x, y in zip(ha, hb):
            common += x if x < y else y
        hits = 0
        for x, y in zip(a, b):
            if x == y:
                hits += 1
        return hits, common - hits''',
    '''        hits = sum(1 for x, y in zip(a, b) if x == y)
        rest = {x for x, y in zip(a, b) if x != y}
        return hits, sum(1 for x, y in zip(a, b) if x != y and y in rest)''')])
patch("/app/audit.py", [(
    '''        hc = self.hist(code)
        total = 0
        for a, b in zip(hc, hg):
            total += min(a, b)
        exact = sum(1 for a, b in zip(code, guess) if a == b)
        return exact, total - exact''',
    '''        exact = sum(1 for a, b in zip(code, guess) if a == b)
        rest = {a for a, b in zip(code, guess) if a != b}
        return exact, sum(1 for a, b in zip(code, guess) if a != b and b in rest)''')])
PY
