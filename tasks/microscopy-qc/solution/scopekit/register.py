"""Integer-shift registration of consecutive frames (SOP section 4)."""


def msd(a, b, dx, dy, step=1):
    """Mean squared difference of b(x + dx, y + dy) - a(x, y) over the overlap."""
    h, w = len(a), len(a[0])
    x0, x1 = max(0, -dx), min(w, w - dx)
    y0, y1 = max(0, -dy), min(h, h - dy)
    tot, n = 0.0, 0
    for y in range(y0, y1, step):
        ra, rb = a[y], b[y + dy]
        seg = [rb[x + dx] - ra[x] for x in range(x0, x1, step)]
        tot += sum(d * d for d in seg)
        n += len(seg)
    return tot / n


def _half(img):
    h, w = len(img) // 2, len(img[0]) // 2
    return [[(img[2 * y][2 * x] + img[2 * y][2 * x + 1] + img[2 * y + 1][2 * x] + img[2 * y + 1][2 * x + 1]) / 4
             for x in range(w)] for y in range(h)]


def _key(score, dx, dy):
    return (score, abs(dx) + abs(dy), dy, dx)


def register(a, b, window=6):
    """(dx, dy): content at (x, y) in a is at (x + dx, y + dy) in b. Coarse search, then refinement."""
    ha, hb = _half(a), _half(b)
    hw = window // 2 + 1
    cand = sorted(_key(msd(ha, hb, dx, dy), dx, dy) for dy in range(-hw, hw + 1) for dx in range(-hw, hw + 1))
    best = None
    for _, _, cy, cx in cand[:1]:
        for dy in range(2 * cy - 2, 2 * cy + 3):
            for dx in range(2 * cx - 2, 2 * cx + 3):
                if abs(dx) <= window and abs(dy) <= window:
                    k = _key(msd(a, b, dx, dy), dx, dy)
                    if best is None or k < best:
                        best = k
    return best[3], best[2]
