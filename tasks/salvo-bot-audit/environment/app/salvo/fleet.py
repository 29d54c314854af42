"""One side's fleet during a game: which cells were fired at, which ships are sunk."""


class Fleet:
    def __init__(self, rules):
        self.rules = rules
        self.ships = []        # [(name, frozenset cells)] in placement order
        self.fired = set()
        self.sunk = set()      # indexes into ships

    def add(self, name, cells):
        self.ships.append((name, frozenset(cells)))

    def afloat(self):
        return len(self.ships) - len(self.sunk)

    def defeated(self):
        return bool(self.ships) and self.afloat() == 0

    def shoot(self, cell):
        """Fire at one cell; returns the call."""
        self.fired.add(cell)
        newly = []
        hit = False
        for i, (name, cells) in enumerate(self.ships):
            if cell in cells:
                hit = True
                if cells <= self.fired:
                    self.sunk.add(i)
                    newly.append(name)
        if not hit:
            return "miss"
        if not newly or self.rules.sunk == "silent":
            return "hit"
        return "sunk:" + newly[0] if self.rules.sunk == "named" else "sunk"
