"""Seeded blob images, a PNG encoder (all colour types, 8/16-bit, per-row filters, Adam7) and the
reference blob table computed from the exact stored samples."""
import math, struct, zlib

from lh import fast_draws_agree, randbelow_many, randint_of

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


# Planted edge features (value, then pixel offsets): a patch exactly at the threshold (grey 128),
# a colony of exactly 6 pixels, one of 5 (noise), and two squares that touch only at a corner.
TIE = [(dx, dy) for dx in range(4) for dy in range(2)]
SIX = [(dx, dy) for dx in range(3) for dy in range(2)]
FIVE = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
DIAG = [(dx, dy) for dx in range(3) for dy in range(3)] + [(dx + 3, dy + 3) for dx in range(3) for dy in range(3)]


# Speed: the images take ~300k draws per grading run, and rng.randint costs three Python calls each
# (randint -> randrange -> _randbelow). lh.randint_of and lh.randbelow_many give the same numbers and
# leave the generator where random leaves it; the hottest loops below inline the same draw
# (CPython's randint(a, b) is a + r, r = getrandbits(k) with k = n.bit_length(), n = b - a + 1, drawn
# again while r >= n), which the kit checks against this interpreter's random: the hidden cases
# depend on it, so the generator refuses to run where it does not hold.
if not fast_draws_agree():
    raise RuntimeError("pngkit: this Python's random draws differently; the hidden cases would change")


def plant(img, centers, rng, shape, value, w, h):
    for _try in range(60):
        x0, y0 = rng.randint(2, w - 9), rng.randint(2, h - 9)
        cx, cy = x0 + 3, y0 + 3
        if all(math.hypot(cx - a, cy - b) > 6 + q for a, b, q in centers):
            for dx, dy in shape:
                img[y0 + dy][x0 + dx] = value
            centers.append((cx, cy, 3.5))
            return


def intensity_map(rng, noise=False, rotate=False, size=(70, 110), n=(6, 16), count=None):
    randint = randint_of(rng)
    w, h = randint(*size), randint(*size)
    gx, gy, g0 = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), randint(20, 50)
    # Background: g0 + gx * x + gy * y + randint(-8, 8) clamped to 0..100, row by row. The w * h
    # draws are made in one go and g0 + gx * x once per column; the sum is still evaluated left to
    # right in the same order.
    across = [g0 + gx * x for x in range(w)]
    grain = randbelow_many(rng, 17, w * h)
    img = []
    for y in range(h):
        down = gy * y
        row = [int(base + down + (d - 8)) for base, d in zip(across, grain[y * w:(y + 1) * w])]
        img.append([0 if v < 0 else 100 if v > 100 else v for v in row])
    centers = []
    if count is None:
        plant(img, centers, rng, TIE, 128, w, h)
        plant(img, centers, rng, SIX, 230, w, h)
        plant(img, centers, rng, FIVE, 230, w, h)
        plant(img, centers, rng, DIAG, 220, w, h)
    if count is None or rng.random() < 0.6:
        # a colony cut by the right or the bottom edge
        r, along = rng.uniform(2.5, 4), rng.uniform(8, min(w, h) - 8)
        cx, cy = (w - 1 + rng.uniform(-1, 1), along) if rng.random() < 0.5 else (along, h - 1 + rng.uniform(-1, 1))
        rr = r * r
        for y in range(h):
            dy2 = (y - cy) ** 2
            if dy2 > rr:  # adding a square (>= 0) cannot bring the sum back under r * r
                continue
            for x in range(w):
                if (x - cx) ** 2 + dy2 <= rr:
                    img[y][x] = 200
        centers.append((cx, cy, r))
    planted = len(centers)
    for _ in range(rng.randint(*n) if count is None else count):
        for _try in range(200):
            r = rng.uniform(2.5, 7.5) if count is None else rng.uniform(1.8, 3.2)
            cx, cy = rng.uniform(r + 2, w - r - 3), rng.uniform(r + 2, h - r - 3)
            if all(math.hypot(cx - a, cy - b) > r + q + 3 for a, b, q in centers):
                centers.append((cx, cy, r))
                break
    for cx, cy, r in centers[planted:]:
        ex, val = rng.uniform(0.7, 1.3), randint(160, 245)
        # the pixels inside the ellipse in raster order, then one randint(-8, 8) each, in one go
        rr, inside = r * r, []
        for y in range(int(cy - r * 1.4) - 1, int(cy + r * 1.4) + 2):
            if 0 <= y < h:
                dy2 = ((y - cy) / ex) ** 2
                inside += [(y, x) for x in range(int(cx - r * 1.4) - 1, int(cx + r * 1.4) + 2)
                           if 0 <= x < w and ((x - cx) * ex) ** 2 + dy2 <= rr]
        for (y, x), d in zip(inside, randbelow_many(rng, 17, len(inside))):
            img[y][x] = val + (d - 8)
    if noise:
        for _ in range(int(w * h * 0.004)):
            img[rng.randrange(h)][rng.randrange(w)] = 255
        for _ in range(int(w * h * 0.002)):
            img[rng.randrange(h)][rng.randrange(w)] = 0
    if rotate:
        for _ in range(rng.randint(1, 3)):
            img = [list(row) for row in zip(*img[::-1])]
        h, w = len(img), len(img[0])
        x0, y0 = rng.randint(3, 15), rng.randint(3, 15)
        x1, y1 = w - rng.randint(0, 10), h - rng.randint(0, 10)
        img = [row[x0:x1] for row in img[y0:y1]]
    return img


def to_samples(rng, img, ctype, depth):
    """Convert an 8-bit intensity map to samples of the given colour type. Returns (rows, plte, trns).
    Every draw is inlined (see randint_of above) and made in the same order as the per-channel, then alpha,
    order of the pixel tuples."""
    h, w = len(img), len(img[0])
    randint, getrandbits = randint_of(rng), rng.getrandbits
    wide = depth == 16

    def up(v):
        if not wide:
            return v
        if v == 255:
            return 65535
        if v == 128:
            return 32896
        d = getrandbits(8)  # randint(0, 200)
        while d >= 201:
            d = getrandbits(8)
        return v * 257 + d

    def channel(v):
        """One colour channel: the threshold grey as it is, any other level jittered by randint(-3, 3),
        then up(v) (inlined: this runs for every sample)."""
        if v != 128:
            d = getrandbits(3)
            while d >= 7:
                d = getrandbits(3)
            v += d - 3
            v = 0 if v < 0 else 255 if v > 255 else v
        if not wide:
            return v
        if v == 255:
            return 65535
        if v == 128:
            return 32896
        d = getrandbits(8)
        while d >= 201:
            d = getrandbits(8)
        return v * 257 + d

    mask = (randint(0, w // 2), randint(0, h // 2), randint(w // 4, w // 2), randint(h // 4, h // 2))
    mx0, my0, mx1, my1 = mask[0], mask[1], mask[0] + mask[2], mask[1] + mask[3]

    def alpha(x, y):
        if mx0 <= x < mx1 and my0 <= y < my1:
            d = getrandbits(2)  # rng.choice([0, 40])
            while d >= 2:
                d = getrandbits(2)
            a = 40 if d else 0
        else:
            a = 255
        return a * 257 if wide else a

    plte, trns, rows = None, None, []
    if ctype == 3:
        levels = list(range(0, 256, 4)) + [255]
        plte = [(min(255, v + randint(0, 3)), v, max(0, v - randint(0, 3))) for v in levels]
        trns = [randint(0, 255) if v < 90 else 255 for v in levels[:40]]
        top = len(levels) - 1
    for y, line in enumerate(img):
        if ctype == 0:
            row = [(up(v),) for v in line]
        elif ctype == 4:
            row = [(up(v), alpha(x, y)) for x, v in enumerate(line)]
        elif ctype == 2:
            row = [(channel(v), channel(v), channel(v)) for v in line]
        elif ctype == 6:
            row = [(channel(v), channel(v), channel(v), alpha(x, y)) for x, v in enumerate(line)]
        else:
            row = [(min(top, (v + 2) // 4),) for v in line]
        rows.append(row)
    return rows, plte, trns


def _sub(cur, prev, bpp):
    return bytes([(x - a) & 255 for x, a in zip(cur, bytes(bpp) + cur)])


def _up(cur, prev, bpp):
    return bytes([(x - b) & 255 for x, b in zip(cur, prev)])


def _average(cur, prev, bpp):
    return bytes([(x - ((a + b) >> 1)) & 255 for x, a, b in zip(cur, bytes(bpp) + cur, prev)])


def _paeth(cur, prev, bpp):
    out = bytearray(len(cur))
    i = 0
    for x, a, b, c in zip(cur, bytes(bpp) + cur, prev, bytes(bpp) + prev):
        # the Paeth predictor: p = a + b - c, then the nearest of a, b, c to p (ties in that order);
        # |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |a + b - 2c|
        pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - c - c)
        out[i] = (x - (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        i += 1
    return out


# Per filter type: the filtered bytes of one row (cur, the row above, bytes per pixel). The left and
# upper-left neighbours of the first pixel are 0, as the bytes(bpp) prefixes say.
FILTERS = (lambda cur, prev, bpp: cur, _sub, _up, _average, _paeth)


def filt(rng, raw_rows, bpp):
    """One random filter type per row; only the chosen type's prediction is computed."""
    out, prev = bytearray(), bytes(len(raw_rows[0]) if raw_rows else 0)
    for cur in raw_rows:
        ft = rng.randint(0, 4)
        out.append(ft)
        out += FILTERS[ft](cur, prev, bpp)
        prev = cur
    return out


def encode(rng, rows, ctype, depth, plte=None, trns=None, interlace=0, extras=False):
    h, w = len(rows), len(rows[0])
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bpp = ch * depth // 8
    def pack(pixels):
        """One (sub)row of pixels as big-endian samples."""
        flat = [v for px in pixels for v in px]
        return bytes(flat) if depth == 8 else struct.pack(">%dH" % len(flat), *flat)
    raw = bytearray()
    for x0, y0, dx, dy in (ADAM7 if interlace else [(0, 0, 1, 1)]):
        sub = [pack(rows[y][x0::dx]) for y in range(y0, h, dy)]
        sub = [r for r in sub if r]
        if sub:
            raw += filt(rng, sub, bpp)
    def chunk(t, b):
        return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xFFFFFFFF)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    if extras:
        out += chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"tEXt", b"Comment\x00plate 7, well B3")
    if plte:
        out += chunk(b"PLTE", b"".join(bytes(p) for p in plte))
    if trns:
        out += chunk(b"tRNS", bytes(trns))
    z = zlib.compress(bytes(raw), rng.randint(1, 9))
    if extras:
        cuts = sorted(rng.sample(range(1, len(z)), 3))
        parts = [z[i:j] for i, j in zip([0] + cuts, cuts + [len(z)])]
    else:
        parts = [z]
    for p in parts:
        out += chunk(b"IDAT", p)
    return out + chunk(b"IEND", b"")


def foreground(rows, ctype, depth, plte, trns):
    """The instruction's rule as one inequality on exact integers: lum(‰) · alpha ≥ 1000 · threshold ·
    max, with palette entries expanded to 8-bit RGB and their tRNS alpha first."""
    full = (1 << depth) - 1
    bar = 1000 * (128 if depth == 8 else 32896) * full
    if ctype == 3:
        alpha = list(trns or [])
        table = [(299 * r + 587 * g + 114 * b) * (alpha[k] if k < len(alpha) else 255) >= bar
                 for k, (r, g, b) in enumerate(plte)]
        return [[table[s[0]] for s in row] for row in rows]
    # Luminance weights (‰) per colour type: 1000 for grey, 299 / 587 / 114 for R / G / B; alpha is
    # the last sample of grey+alpha and RGBA, full scale otherwise.
    if ctype == 0:
        return [[1000 * v * full >= bar for (v,) in row] for row in rows]
    if ctype == 4:
        return [[1000 * v * a >= bar for v, a in row] for row in rows]
    if ctype == 2:
        return [[(299 * r + 587 * g + 114 * b) * full >= bar for r, g, b in row] for row in rows]
    return [[(299 * r + 587 * g + 114 * b) * a >= bar for r, g, b, a in row] for row in rows]


def blobs(fg):
    """8-connected components by two-pass labelling with union-find (not a flood fill)."""
    h, w = len(fg), len(fg[0])
    parent = {}  # pixel index y * w + x -> its parent, foreground pixels only

    def find(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    blank = [False] * w
    for y in range(h):
        row, above = fg[y], fg[y - 1] if y else blank
        for x in range(w):
            if not row[x]:
                continue
            k = y * w + x
            parent[k] = k
            # Every pixel visited so far shares a set with each of its foreground neighbours visited
            # before it, so only some of the four need joining: with the pixel above on, the left,
            # upper-left and upper-right ones are its neighbours and share its set already; else
            # an upper-left one shares the set of a left one (the pixel above it).
            if above[x]:
                union(k, k - w)
                continue
            left = x > 0 and row[x - 1]
            if left:
                union(k, k - 1)
            elif x > 0 and above[x - 1]:
                union(k, k - w - 1)
            if x + 1 < w and above[x + 1]:
                union(k, k - w + 1)
    # Second pass in raster order: a component's first pixel is its least (y, x), the sort key
    # of the table; the centroids are exact integer sums divided once, as fsum of the coordinates gave.
    groups = {}
    for k in parent:  # insertion order = raster order
        root = find(k)
        y, x = divmod(k, w)
        g = groups.get(root)
        if g is None:
            groups[root] = g = [0, 0, 0, False]
        g[0] += 1
        g[1] += x
        g[2] += y
        g[3] = g[3] or x == 0 or y == 0 or x == w - 1 or y == h - 1
    big = [g for g in groups.values() if g[0] >= 6]  # smaller components are noise
    out = [dict(area=n, cx=float(sx) / n, cy=float(sy) / n) for n, sx, sy, edge in big if not edge]
    return dict(width=w, height=h, count=len(out), border_count=sum(g[3] for g in big), blobs=out)


ENCODINGS = [(3, 8), (4, 8), (6, 16), (0, 16), (2, 16), (4, 16), (6, 8), (2, 8), (0, 8)]


def make(rng, kind, enc=None, interlace=0, count=None):
    """kind: plain | encodings | noisy | plate. Returns (png bytes, expected dict)."""
    if kind == "plate":
        img = intensity_map(rng, size=(40, 56), count=count)
    else:
        img = intensity_map(rng, noise=kind == "noisy", rotate=kind == "noisy")
    ctype, depth = enc if enc else rng.choice([(0, 8), (2, 8)])
    rows, plte, trns = to_samples(rng, img, ctype, depth)
    data = encode(rng, rows, ctype, depth, plte, trns, interlace=interlace,
                  extras=kind != "plain" and kind != "noisy")
    return data, blobs(foreground(rows, ctype, depth, plte, trns))
