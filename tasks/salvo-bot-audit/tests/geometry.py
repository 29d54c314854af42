"""The grader's own geometry: cells are complex numbers col + row*1j (rows grow downward).

Independent of the shipped package: shapes are rotated by multiplying with 1j and mirrored with
the conjugate, fleets are kept as bitmasks over the board."""
COLS = "ABCDEFGHIJKLMNOP"


def name(z):
    return "%s%d" % (COLS[int(z.real)], int(z.imag) + 1)


def unname(text):
    return complex(COLS.index(text[0]), int(text[1:]) - 1)


def shape_points(pattern):
    return [complex(x, y) for y, row in enumerate(pattern.split("/")) for x, ch in enumerate(row) if ch == "#"]


def _anchor(pts):
    lo_x = min(p.real for p in pts)
    lo_y = min(p.imag for p in pts)
    return frozenset(p - complex(lo_x, lo_y) for p in pts)


def variants(pattern, rotate):
    """Set of frozensets of points: the shape as drawn, its quarter turns, and with rotate=mirror
    also the quarter turns of its mirror image."""
    pts = shape_points(pattern)
    if rotate == "no":
        return {_anchor(pts)}
    seeds = [pts]
    if rotate == "mirror":
        seeds.append([p.conjugate() * -1 for p in pts])   # x -> -x
    out = set()
    for s in seeds:
        for q in range(4):
            out.add(_anchor([p * (1j ** q) for p in s]))
    return out


class Board:
    """Width x height grid with blocked cells; bit i = cell (i % width, i // width)."""

    def __init__(self, width, height, blocked=()):
        self.w, self.h = width, height
        self.blocked = 0
        for z in blocked:
            self.blocked |= self.bit(z)

    def bit(self, z):
        return 1 << (int(z.imag) * self.w + int(z.real))

    def inside(self, z):
        return 0 <= z.real < self.w and 0 <= z.imag < self.h

    def mask(self, pts):
        m = 0
        for z in pts:
            m |= self.bit(z)
        return m

    def points(self, mask):
        out, i = [], 0
        while mask:
            if mask & 1:
                out.append(complex(i % self.w, i // self.w))
            mask >>= 1
            i += 1
        return out

    def spots(self, pattern, rotate, forbidden=0):
        """Distinct masks of every allowed orientation on the board, off blocked and forbidden cells.

        A variant is anchored (its smallest column and row are 0), so it lies on the board at
        offset x + y*1j exactly when x + its largest column < width and y + its largest row <
        height, and its mask there is its mask at offset 0 shifted by y * width + x bits: no cell
        wraps into the next row. (This is the grader's hottest loop: hide_fleet and place call it
        for every ship of every drawn fleet, so it works on whole masks, not points.)"""
        bad = self.blocked | forbidden
        found = set()
        for v in variants(pattern, rotate):
            base = self.mask(v)
            for y in range(self.h - int(max(p.imag for p in v))):
                for x in range(self.w - int(max(p.real for p in v))):
                    m = base << (y * self.w + x)
                    if not m & bad:
                        found.add(m)
        return sorted(found)

    def zone(self, mask, touch):
        """Cells a second ship may not use, given one ship's mask."""
        if touch == "yes":
            return mask
        steps = [1, -1, 1j, -1j]
        if touch == "corner":
            steps += [1 + 1j, 1 - 1j, -1 + 1j, -1 - 1j]
        pts = self.points(mask)
        extra = [p + s for p in pts for s in steps]
        return mask | self.mask([p for p in extra if self.inside(p)])
