#!/usr/bin/env bash
# Honest partial: the engine repairs `count` and `replay` need (two-digit rows, rotation, mirror
# images, board size, the last column, diagonal neighbours, hits covered, one sunk call per ship,
# salvo size from the shooter's fleet) and the client's NOTE lines, with the house sweep bot left
# playing and no audit command.
set -euo pipefail
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/salvo/coords.py", [
    ("return LETTERS.index(text[0]), int(text[1]) - 1", "return LETTERS.index(text[0]), int(text[1:]) - 1"),
    ("for dr in (0, 1) if dc or dr]", "for dr in (-1, 0, 1) if dc or dr]"),
])
patch("/app/salvo/shapes.py", [
    ("return normalise([(r, c) for c, r in cells])", "return normalise([(-r, c) for c, r in cells])"),
    ('if mode == "mirrored" else', 'if mode == "mirror" else'),
])
patch("/app/salvo/rules.py", [("rules.height, rules.width = int(w), int(h)", "rules.width, rules.height = int(w), int(h)")])
patch("/app/salvo/board.py", [("for c0 in range(rules.width - wmax - 1):", "for c0 in range(rules.width - wmax):")])
patch("/app/salvo/count.py", [("if hits & used:", "if hits <= used:")])
patch("/app/salvo/fleet.py", [("if cells <= self.fired:", "if i not in self.sunk and cells <= self.fired:")])
patch("/app/salvo/client.py", [('if not words or words[0] == "HELLO":', 'if not words or words[0] in ("NOTE", "HELLO"):')])
patch("/app/salvo/game.py", [("return self.fleets[self.other(player)].afloat()", "return self.fleets[player].afloat()")])
PY
