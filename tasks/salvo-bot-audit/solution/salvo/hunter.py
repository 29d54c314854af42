"""A placement-density hunter: fire where the most consistent ship placements overlap."""
from collections import Counter
from itertools import chain

from .board import halo, placements


class Hunter:
    def __init__(self, rules, index=None):
        self.rules = rules
        self.fired = set()
        self.misses = set()
        self.hits = set()            # hit cells not yet assigned to a sunk ship
        self.hit_all = set()
        self.settled = set()         # hit cells known to belong to sunk ships
        self.dead = set()            # cells of sunk ships and the cells the touch rule empties
        self.remaining = list(range(len(rules.ships)))
        # every placement of each ship, and per ship and cell the placements through that cell;
        # the same for every game of a match (play() passes them on as `index`)
        self.options, self.through = index or placement_index(rules)
        # Kept between calls, as density runs for every cell fired: the placements of each
        # floating ship clear of every miss and dead cell, and how many of them cover each cell.
        # misses and dead only grow and ships only leave `remaining`, so their sizes tell when to
        # update, and an update only takes out the placements through the newly ruled-out cells.
        self._key = None
        self._bad = set()            # the misses and dead cells _live is clear of
        self._live = {}              # ship -> set of its placements clear of misses and dead
        self._cover = Counter()      # cell -> how many placements in _live cover it (zeros kept)

    def _refresh(self):
        key = (len(self.misses), len(self.dead), len(self.remaining))
        if key == self._key:
            return
        self._key = key
        new = (self.misses | self.dead) - self._bad
        self._bad |= new
        for i in [i for i in self._live if i not in self.remaining]:
            self._cover.subtract(chain.from_iterable(self._live.pop(i)))
        for i in self.remaining:
            if i not in self._live:
                self._live[i] = {p for p in self.options[i] if self._bad.isdisjoint(p)}
                self._cover.update(chain.from_iterable(self._live[i]))
            elif new:
                gone = self._through(i, new)
                self._live[i] -= gone
                self._cover.subtract(chain.from_iterable(gone))

    def _through(self, i, cells):
        """The live placements of ship i through any of these cells."""
        index = self.through[i]
        return {p for c in cells for p in index.get(c, ())} & self._live[i]

    def density(self, assumed):
        """Cell -> weight: placements of floating ships consistent with what is known (and with the
        cells in `assumed` being misses); placements through open hits weigh far more.

        Every placement clear of misses and dead cells weighs 1 (the kept cover counts); then the
        few through an assumed cell come out again and the few through open hits get their extra
        40 n^2. The totals are the same integers as adding each placement's weight cell by cell,
        and choose() breaks ties by the cell, so the picks do not depend on the order of adding."""
        self._refresh()
        score = Counter(self._cover)
        hits = self.hits
        marked = hits | assumed
        if marked:
            for i in self.remaining:
                for p in self._through(i, marked):
                    if not assumed.isdisjoint(p):
                        extra = -1                   # assumed missed: not a placement after all
                    else:
                        n = len(p & hits)
                        extra = 40 * n * n           # weight 1 + 40 n^2 in all
                    for c in p:
                        score[c] += extra
        fired = self.fired
        return {c: w for c, w in score.items() if w and c not in fired and c not in assumed}

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
        """Open hits no live placement of a floating ship can cover belong to sunk ships (the
        kept cover counts say how many live placements cover each cell)."""
        self._refresh()
        self.hits &= {c for c in self.hits if self._cover[c] > 0}


def placement_index(rules):
    """Every placement of each ship (in placements() order) and, per ship, cell -> placements."""
    options = {i: placements(rules, shape) for i, (_, shape) in enumerate(rules.ships)}
    through = {}
    for i, opts in options.items():
        through[i] = index = {}
        for p in opts:
            for c in p:
                index.setdefault(c, []).append(p)
    return options, through


def play(rules, client):
    """Play every game of the match; a fresh hunter per game."""
    hunter = Hunter(rules)
    while True:
        event = client.next_event()
        if event[0] == "end":
            return event[1]
        if event[0] == "game":
            hunter = Hunter(rules, (hunter.options, hunter.through))
        elif event[0] == "turn":
            for cell, call in client.fire(hunter.choose(event[2])):
                hunter.record(cell, call)
