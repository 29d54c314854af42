"""Legend reading and per-series pixel extraction for line, scatter and bar charts."""
from .axes import FigureError
from .font import read_line

COLOUR_TOL = 24


def legend_box(img, frame):
    """The legend: the bounding box of the black pixels strictly inside the plot frame."""
    left, top, right, bottom = frame
    xs, ys, w = [], [], img.width
    for y in range(top + 1, bottom):
        row = img.ink[y * w + left + 1:y * w + right]
        if 1 in row:
            xs += [row.index(1) + left + 1, len(row) - 1 - row[::-1].index(1) + left + 1]
            ys.append(y)
    if not xs:
        raise FigureError("no legend")
    return min(xs), min(ys), max(xs), max(ys)


def is_paper(c):
    r, g, b = c
    return (r >= 200 and g >= 200 and b >= 200) or (r <= 60 and g <= 60 and b <= 60)


def read_legend(img, box, s):
    """[(name, colour)] in legend order; each entry is 7s + 4 rows high, starting 3 rows below the top."""
    x0, y0, x1, y1 = box
    eh = 7 * s + 4
    n = (y1 - y0 - 3) // eh
    entries = []
    for i in range(n):
        ty = y0 + 3 + i * eh
        cols = [img.px(x, y) for y in range(ty, ty + 7 * s) for x in range(x0 + 1, x1)
                if not is_paper(img.px(x, y))]
        if not cols:
            raise FigureError("legend entry %d has no swatch" % (i + 1))
        colour = cols[0]
        words = read_line(img, ty, x0 + 1, x1 - 1, s)
        if not words:
            raise FigureError("legend entry %d unreadable" % (i + 1))
        entries.append((words[0][1], colour))
    return entries


def matches(c, colour):
    return tuple(c) == tuple(colour)


def label_map(img, frame, box, entries):
    """Pixel -> series index (or -1) over the plot interior, the legend box excluded."""
    left, top, right, bottom = frame
    lx0, ly0, lx1, ly1 = box
    lab, w, rgb = {}, img.width, img.rgb
    for y in range(top + 1, bottom):
        for x in range(left + 1, right):
            i = 3 * (y * w + x)
            r, g, b = rgb[i], rgb[i + 1], rgb[i + 2]
            if (r >= 200 and g >= 200 and b >= 200) or (r <= 60 and g <= 60 and b <= 60):
                continue
            c = (r, g, b)
            for k, (_, colour) in enumerate(entries):
                if matches(c, colour):
                    lab[(x, y)] = k
                    break
    return lab


def components(points):
    """4-connected components of a set of pixels."""
    left, comps = set(points), []
    while left:
        seed = left.pop()
        stack, comp = [seed], [seed]
        while stack:
            x, y = stack.pop()
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if q in left:
                    left.remove(q)
                    stack.append(q)
                    comp.append(q)
        comps.append(comp)
    return comps


def line_columns(lab, k):
    """Column -> run centre row for series k, only where the run is whole and not touched by another series."""
    cols = {}
    for (x, y), j in lab.items():
        if j == k:
            cols.setdefault(x, []).append(y)
    clean = {}
    for x, ys in cols.items():
        clean[x] = sum(ys) / len(ys)
    return clean


def row_at(clean, u):
    """Row of the curve at fractional column u, interpolated between the nearest clean columns."""
    xs = sorted(clean)
    below = [x for x in xs if x <= u]
    above = [x for x in xs if x >= u]
    if not below or not above:
        raise FigureError("no curve pixels near column %.1f" % u)
    a, b = below[-1], above[0]
    if a == b:
        return clean[a]
    return clean[a] + (clean[b] - clean[a]) * (u - a) / (b - a)


def scatter_points(lab, k):
    pts = [p for p, j in lab.items() if j == k]
    out = []
    for comp in components(pts):
        xs = [p[0] for p in comp]
        ys = [p[1] for p in comp]
        out.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
    return out


def bar_tops(lab, k):
    """(left column, top row) of each bar of series k, left to right."""
    pts = [p for p, j in lab.items() if j == k]
    bars = []
    for comp in components(pts):
        # the bar ends where the paper starts again above it
        bars.append((min(p[0] for p in comp), min(p[1] for p in comp) - 1))
    return sorted(bars)
