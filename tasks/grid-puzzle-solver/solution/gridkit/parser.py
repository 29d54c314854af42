"""The .pz puzzle format (docs/FORMAT.md).

    # comment                      anything after '#' is ignored, on any line
    size 6
    box 2 3                        box height (rows) and width (columns)
    regions                        or: a region map, n lines of n labels
    givens                         n lines of n characters: a digit, '.' or '0' (empty)
    cage 11 r1c1 r1c2 r2c1         killer cage: its sum, then its cells
    less r1c1 r1c2                 r1c1 < r1c2
    greater r2c2 r2c3              r2c2 > r2c3
    thermo r1c1 r1c2 r1c3          bulb first, strictly increasing

A line ending in a backslash continues on the next line.
"""

import os

from .cells import parse_cell
from .layout import box_layout, map_layout
from .puzzle import Cage, Less, Puzzle, Thermo


class ParseError(ValueError):
    pass


def _logical_lines(text):
    """(line number, text) with comments removed and continuations joined."""
    out = []
    carry = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        cont = line.endswith("\\")
        if cont:
            line = line[:-1]
        if carry is not None:
            carry = (carry[0], carry[1] + " " + line.strip())
        else:
            carry = (no, line.strip())
        if not cont:
            if carry[1]:
                out.append(carry)
            carry = None
    if carry is not None and carry[1]:
        out.append(carry)
    return out


def _block(lines, i, n, what):
    """The n lines after a 'givens' or 'regions' keyword, spaces removed."""
    rows = []
    for k in range(n):
        if i + k >= len(lines):
            raise ParseError("%s: expected %d rows, file ended" % (what, n))
        rows.append(lines[i + k][1].replace(" ", ""))
    for no_row, row in zip(lines[i:i + n], rows):
        if len(row) != n:
            raise ParseError("line %d: %s row must have %d entries" % (no_row[0], what, n))
    return rows


def parse(text, name=""):
    lines = _logical_lines(text)
    n = None
    box = None
    region_rows = None
    givens = None
    cages, lesses, thermos = [], [], []
    pending = None          # the cage being read: (line number, tokens)

    def flush():
        if pending is None:
            return
        no, toks = pending
        if len(toks) < 2:
            raise ParseError("line %d: a cage needs a sum and at least one cell" % no)
        try:
            total = int(toks[0])
        except ValueError:
            raise ParseError("line %d: bad cage sum %r" % (no, toks[0]))
        cages.append(Cage(total, [parse_cell(t, n) for t in toks[1:]]))

    i = 0
    while i < len(lines):
        no, line = lines[i]
        toks = line.split()
        key = toks[0].lower()
        if key != "cage":
            flush()
            pending = None
        if key == "size":
            n = int(toks[1])
            if not 4 <= n <= 9:
                raise ParseError("line %d: size must be 4..9" % no)
        elif n is None:
            raise ParseError("line %d: 'size' must come first" % no)
        elif key == "box":
            box = (int(toks[1]), int(toks[2]))
        elif key == "regions":
            region_rows = _block(lines, i + 1, n, "regions")
            i += n
        elif key == "givens":
            rows = _block(lines, i + 1, n, "givens")
            givens = []
            for row in rows:
                vals = []
                for ch in row:
                    if ch in ".0":
                        vals.append(0)
                    elif ch.isdigit() and 1 <= int(ch) <= n:
                        vals.append(int(ch))
                    else:
                        raise ParseError("line %d: bad given %r" % (no, ch))
                givens.append(vals)
            i += n
        elif key == "cage":
            flush()
            pending = (no, toks[1:])
        elif key in ("less", "greater"):
            if len(toks) != 3:
                raise ParseError("line %d: %s takes two cells" % (no, key))
            a, b = parse_cell(toks[1], n), parse_cell(toks[2], n)
            lesses.append(Less(a, b) if key == "less" else Less(b, a))
        elif key == "thermo":
            if len(toks) < 3:
                raise ParseError("line %d: a thermometer needs two cells or more" % no)
            thermos.append(Thermo([parse_cell(t, n) for t in toks[1:]]))
        else:
            raise ParseError("line %d: unknown keyword %r" % (no, toks[0]))
        i += 1
    flush()

    if n is None:
        raise ParseError("no 'size' line")
    if (box is None) == (region_rows is None):
        raise ParseError("give exactly one of 'box' and 'regions'")
    layout = box_layout(n, box[0], box[1]) if box else map_layout(n, region_rows)
    if givens is None:
        givens = [[0] * n for _ in range(n)]
    return Puzzle(n, givens, layout, cages, lesses, thermos, name=name)


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return parse(text, name=os.path.splitext(os.path.basename(path))[0])
