"""Per-frame QC metrics."""


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def saturation_fraction(raw, maxval):
    n = sum(len(r) for r in raw)
    return sum(1 for r in raw for v in r if v >= 255) / n


def focus_score(img):
    """Variance of the Laplacian over the interior pixels."""
    h, w = len(img), len(img[0])
    vals = []
    for y in range(1, h - 1):
        up, row, dn = img[y - 1], img[y], img[y + 1]
        vals.extend(up[x] + dn[x] + row[x - 1] + row[x + 1] - 5 * row[x] for x in range(1, w - 1))
    m = sum(vals) / len(vals)
    return sum((v - m) ** 2 for v in vals) / len(vals)


def uniformity(img, tiles=4):
    """min / max of the tile levels of a tiles x tiles grid."""
    h, w = len(img), len(img[0])
    th, tw = h // tiles, w // tiles
    levels = []
    for ty in range(tiles):
        for tx in range(tiles):
            levels.append(median([img[y][x] for y in range(ty * th, (ty + 1) * th) for x in range(tx * tw, (tx + 1) * tw)]))
    return min(levels) / max(levels) if max(levels) > 0 else 0.0
