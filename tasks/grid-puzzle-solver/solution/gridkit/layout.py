"""Regions of a grid: the boxes of a box shape, or the regions of a region map.

A layout is an n x n list of region indices 0..n-1.
"""


class LayoutError(ValueError):
    pass


def box_layout(n, height, width):
    """Boxes of `height` rows by `width` columns, numbered left to right, top to bottom."""
    if height * width != n:
        raise LayoutError("box %dx%d does not tile a %dx%d grid" % (height, width, n, n))
    per_band = n // width
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            band = r // height
            stack = c // width
            row.append(band * per_band + stack)
        grid.append(row)
    return grid


def map_layout(n, rows):
    """Region map: rows[r][c] is the label of cell (r, c); labels are numbered in
    order of first appearance (reading order)."""
    if len(rows) != n or any(len(x) != n for x in rows):
        raise LayoutError("region map must be %d rows of %d labels" % (n, n))
    index = {}
    grid = []
    for r in range(n):
        out = []
        for c in range(n):
            lab = rows[r][c]
            if lab not in index:
                index[lab] = len(index)
            out.append(index[lab])
        grid.append(out)
    check_layout(n, grid)
    return grid


def check_layout(n, grid):
    sizes = {}
    for row in grid:
        for k in row:
            sizes[k] = sizes.get(k, 0) + 1
    if len(sizes) != n or any(v != n for v in sizes.values()):
        raise LayoutError("a layout needs %d regions of %d cells, got sizes %s"
                          % (n, n, sorted(sizes.values())))


def region_cells(grid):
    """region index -> list of cells in reading order."""
    out = {}
    for r, row in enumerate(grid):
        for c, k in enumerate(row):
            out.setdefault(k, []).append((r, c))
    return [out[k] for k in sorted(out)]
