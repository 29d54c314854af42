"""A placement-density hunter: fire where the most consistent ship placements overlap."""
from .board import halo, placements


class Hunter:
    def __init__(self, rules):
        self.rules = rules
        self.fired = set()
        self.misses = set()
        self.hits = set()            # hit cells not yet assigned to a sunk ship
        self.hit_all = set()
        self.settled = set()         # hit cells known to belong to sunk ships
        self.dead = set()            # cells of sunk ships and the cells the touch rule empties
        self.remaining = list(range(len(rules.ships)))
        self.options = {i: placements(rules, shape) for i, (_, shape) in enumerate(rules.ships)}

    def live_options(self, i, extra=frozenset()):
        bad = self.misses | self.dead | extra
        return [p for p in self.options[i] if not (p & bad)]

    def density(self, assumed):
        """Cell -> weight: placements of floating ships consistent with what is known (and with the
        cells in `assumed` being misses); placements through open hits weigh far more."""
        score = {}
        target = bool(self.hits)
        for i in self.remaining:
            for p in self.live_options(i, assumed):
                n = len(p & self.hits)
                w = 1 + 40 * n * n if target and n else 1
                for c in p:
                    if c not in self.fired and c not in assumed:
                        score[c] = score.get(c, 0) + w
        return score

    def choose(self, k):
        """k cells, one at a time: each next pick assumes the earlier picks of this salvo missed,
        so a salvo spreads over the likely cells instead of piling onto one spot."""
        picks = []
        for _ in range(k):
            score = self.density(frozenset(picks))
            if not score:
                break
            picks.append(min(score, key=lambda c: (-score[c], c[1], c[0])))
        if len(picks) < k:
            rest = [c for c in self.rules.cells() if c not in self.fired and c not in self.rules.blocked and c not in picks]
            picks += rest[: k - len(picks)]
        return picks

    def record(self, cell, call):
        self.fired.add(cell)
        if call == "miss":
            self.misses.add(cell)
            return
        self.hits.add(cell)
        self.hit_all.add(cell)
        if call.startswith("sunk"):
            self.resolve(cell, call[5:] if ":" in call else None)
        self.prune()

    def resolve(self, cell, name):
        """A ship sank at `cell`: drop it from the fleet; settle its cells when they are certain."""
        free = self.hit_all - self.settled
        cands = {}
        for i in self.remaining:
            if name is not None and self.rules.ships[i][0] != name:
                continue
            fits = [p for p in self.options[i] if cell in p and p <= free]
            if fits:
                cands[i] = fits
        if not cands:
            pool = [i for i in self.remaining if name is None or self.rules.ships[i][0] == name]
            if pool:
                self.remaining.remove(pool[0])
            return
        ship = max(cands, key=lambda i: (len(self.rules.ships[i][1]), -i))
        self.remaining.remove(ship)
        fits = cands[ship]
        sure = frozenset.intersection(*fits)
        self.settled |= sure
        self.hits -= sure
        if len(fits) == 1:
            self.dead |= halo(self.rules, fits[0])
        else:
            self.dead |= sure

    def prune(self):
        """Open hits no live placement of a floating ship can cover belong to sunk ships."""
        cover = set()
        for i in self.remaining:
            for p in self.live_options(i):
                cover |= p
        self.hits &= cover


def play(rules, client):
    """Play every game of the match; a fresh hunter per game."""
    hunter = Hunter(rules)
    while True:
        event = client.next_event()
        if event[0] == "end":
            return event[1]
        if event[0] == "game":
            hunter = Hunter(rules)
        elif event[0] == "turn":
            for cell, call in client.fire(hunter.choose(event[2])):
                hunter.record(cell, call)
