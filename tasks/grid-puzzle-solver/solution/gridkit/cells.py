"""Cell names: 'r3c5' is row 3, column 5 (1-based in files, 0-based in code)."""

import re

_CELL = re.compile(r"^[rR](\d+)[cC](\d+)$")


class CellError(ValueError):
    pass


def parse_cell(text, n):
    """'r3c5' -> (2, 4), checked against the grid size n."""
    m = _CELL.match(text.strip())
    if not m:
        raise CellError("bad cell name %r" % text)
    r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
    if not (0 <= r < n and 0 <= c < n):
        raise CellError("cell %r outside a %dx%d grid" % (text, n, n))
    return (r, c)


def cell_name(cell):
    """(2, 4) -> 'r3c5'."""
    return "r%dc%d" % (cell[0] + 1, cell[1] + 1)


def row_major(cells):
    """Cells sorted in reading order (row by row, left to right)."""
    return sorted(cells)


def neighbours(cell, n):
    r, c = cell
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            out.append((rr, cc))
    return out
