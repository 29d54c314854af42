"""The puzzle model."""

from .cells import cell_name


class Cage:
    """Killer cage: the digits sum to `total` and do not repeat."""

    def __init__(self, total, cells):
        self.total = total
        self.cells = list(cells)

    def __repr__(self):
        return "Cage(%d, %s)" % (self.total, " ".join(cell_name(c) for c in self.cells))


class Less:
    """Inequality sign: value(a) < value(b)."""

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def __repr__(self):
        return "Less(%s < %s)" % (cell_name(self.a), cell_name(self.b))


class Thermo:
    """Thermometer: digits strictly increase from the bulb (cells[0]) along the cells."""

    def __init__(self, cells):
        self.cells = list(cells)

    def __repr__(self):
        return "Thermo(%s)" % " ".join(cell_name(c) for c in self.cells)


class Puzzle:
    def __init__(self, n, givens, layout, cages=(), lesses=(), thermos=(), name=""):
        self.n = n
        self.givens = givens            # n x n, 0 = empty
        self.layout = layout            # n x n region indices
        self.cages = list(cages)
        self.lesses = list(lesses)
        self.thermos = list(thermos)
        self.name = name
        self.cells = [(r, c) for r in range(n) for c in range(n)]
        self._index()

    def _index(self):
        n = self.n
        self.units = []
        for r in range(n):
            self.units.append([(r, c) for c in range(n)])
        for c in range(n):
            self.units.append([(r, c) for r in range(n)])
        regions = {}
        for r in range(n):
            for c in range(n):
                regions.setdefault(self.layout[r][c], []).append((r, c))
        for k in sorted(regions):
            self.units.append(regions[k])
        self.peers = {cell: set() for cell in self.cells}
        for unit in self.units:
            for cell in unit:
                self.peers[cell].update(unit)
        for cell in self.cells:
            self.peers[cell].discard(cell)
        self.cage_of = {}
        for cage in self.cages:
            for cell in cage.cells:
                self.cage_of[cell] = cage
        self.less_of = {cell: [] for cell in self.cells}
        for lt in self.lesses:
            self.less_of[lt.a].append(lt)
            self.less_of[lt.b].append(lt)
        self.thermo_of = {cell: [] for cell in self.cells}
        for th in self.thermos:
            for cell in th.cells:
                self.thermo_of[cell].append(th)

    def region(self, cell):
        return self.layout[cell[0]][cell[1]]

    def digits(self):
        return range(1, self.n + 1)
