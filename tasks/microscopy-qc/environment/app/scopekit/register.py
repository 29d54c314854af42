"""Integer-shift registration by exhaustive search."""


def ssd(a, b, dx, dy):
    h, w = len(a), len(a[0])
    x0, x1 = max(0, -dx), min(w, w - dx)
    y0, y1 = max(0, -dy), min(h, h - dy)
    tot = 0.0
    for y in range(y0, y1):
        ra, rb = a[y], b[y + dy]
        tot += sum((rb[x + dx] - ra[x]) ** 2 for x in range(x0, x1))
    return tot


def register(a, b, window=6):
    """Shift (dx, dy) of frame b against frame a."""
    best = None
    for dy in range(-window, window + 1):
        for dx in range(-window, window + 1):
            s = ssd(a, b, dx, dy)
            if best is None or s < best[0]:
                best = (s, dx, dy)
    return -best[1], -best[2]
