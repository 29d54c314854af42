"""Seeded blob images, a PNG encoder (all colour types, 8/16-bit, per-row filters, Adam7) and the
reference blob table computed from the exact stored samples."""
import math, struct, zlib

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


# Planted edge features (value, then pixel offsets): a patch exactly at the threshold (grey 128),
# a colony of exactly 6 pixels, one of 5 (noise), and two squares that touch only at a corner.
TIE = [(dx, dy) for dx in range(4) for dy in range(2)]
SIX = [(dx, dy) for dx in range(3) for dy in range(2)]
FIVE = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
DIAG = [(dx, dy) for dx in range(3) for dy in range(3)] + [(dx + 3, dy + 3) for dx in range(3) for dy in range(3)]


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
    w, h = rng.randint(*size), rng.randint(*size)
    gx, gy, g0 = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3), rng.randint(20, 50)
    img = [[max(0, min(100, int(g0 + gx * x + gy * y + rng.randint(-8, 8)))) for x in range(w)] for y in range(h)]
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
        for y in range(h):
            for x in range(w):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
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
        ex, val = rng.uniform(0.7, 1.3), rng.randint(160, 245)
        for y in range(int(cy - r * 1.4) - 1, int(cy + r * 1.4) + 2):
            for x in range(int(cx - r * 1.4) - 1, int(cx + r * 1.4) + 2):
                if 0 <= x < w and 0 <= y < h and ((x - cx) * ex) ** 2 + ((y - cy) / ex) ** 2 <= r * r:
                    img[y][x] = val + rng.randint(-8, 8)
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
    """Convert an 8-bit intensity map to samples of the given colour type. Returns (rows, plte, trns)."""
    h, w = len(img), len(img[0])
    up = (lambda v: 65535 if v == 255 else 32896 if v == 128 else v * 257 + rng.randint(0, 200)) if depth == 16 else (lambda v: v)
    mask = (rng.randint(0, w // 2), rng.randint(0, h // 2), rng.randint(w // 4, w // 2), rng.randint(h // 4, h // 2))
    def alpha(x, y):
        inside = mask[0] <= x < mask[0] + mask[2] and mask[1] <= y < mask[1] + mask[3]
        a = rng.choice([0, 40]) if inside else 255
        return a * 257 if depth == 16 else a
    plte, trns, rows = None, None, []
    if ctype == 3:
        levels = list(range(0, 256, 4)) + [255]
        plte = [(min(255, v + rng.randint(0, 3)), v, max(0, v - rng.randint(0, 3))) for v in levels]
        trns = [rng.randint(0, 255) if v < 90 else 255 for v in levels[:40]]
    for y in range(h):
        row = []
        for x in range(w):
            v = img[y][x]
            if ctype == 0:
                row.append((up(v),))
            elif ctype == 4:
                row.append((up(v), alpha(x, y)))
            elif ctype == 2:
                row.append(tuple(up(v if v == 128 else max(0, min(255, v + rng.randint(-3, 3)))) for _ in range(3)))
            elif ctype == 6:
                row.append(tuple(up(v if v == 128 else max(0, min(255, v + rng.randint(-3, 3)))) for _ in range(3)) + (alpha(x, y),))
            else:
                row.append((min(len(levels) - 1, (v + 2) // 4),))
        rows.append(row)
    return rows, plte, trns


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def filt(rng, raw_rows, bpp):
    out, prev = bytearray(), bytearray(len(raw_rows[0]) if raw_rows else 0)
    for cur in raw_rows:
        ft = rng.randint(0, 4)
        f = bytearray(len(cur))
        for i in range(len(cur)):
            a = cur[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            pred = (0, a, b, (a + b) >> 1, paeth(a, b, c))[ft]
            f[i] = (cur[i] - pred) & 255
        out.append(ft)
        out += f
        prev = cur
    return out


def encode(rng, rows, ctype, depth, plte=None, trns=None, interlace=0, extras=False):
    h, w = len(rows), len(rows[0])
    ch = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    bpp = ch * depth // 8
    def pack(px):
        return bytes(px) if depth == 8 else b"".join(struct.pack(">H", v) for v in px)
    raw = bytearray()
    for x0, y0, dx, dy in (ADAM7 if interlace else [(0, 0, 1, 1)]):
        sub = [b"".join(pack(rows[y][x]) for x in range(x0, w, dx)) for y in range(y0, h, dy)]
        sub = [bytearray(r) for r in sub if r]
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


# Luminance weights (‰) per channel of each colour type, and the channel holding alpha (None: opaque).
WEIGHTS = {0: ((1000,), None), 4: ((1000,), 1), 2: ((299, 587, 114), None), 6: ((299, 587, 114), 3)}


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
    weights, a = WEIGHTS[ctype]
    return [[sum(w * v for w, v in zip(weights, s)) * (full if a is None else s[a]) >= bar for s in row] for row in rows]


def blobs(fg):
    """8-connected components by two-pass labelling with union-find (not a flood fill)."""
    h, w = len(fg), len(fg[0])
    parent = {}

    def find(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for y in range(h):
        for x in range(w):
            if not fg[y][x]:
                continue
            parent[(x, y)] = (x, y)
            for nx, ny in ((x - 1, y), (x - 1, y - 1), (x, y - 1), (x + 1, y - 1)):
                if 0 <= nx < w and ny >= 0 and fg[ny][nx]:
                    ra, rb = find((x, y)), find((nx, ny))
                    if ra != rb:
                        parent[max(ra, rb)] = min(ra, rb)
    groups = {}
    for k in parent:
        groups.setdefault(find(k), []).append(k)
    big = [g for g in groups.values() if len(g) >= 6]  # smaller components are noise
    touches = [any(x == 0 or y == 0 or x == w - 1 or y == h - 1 for x, y in g) for g in big]
    inner = sorted((min((y, x) for x, y in g), g) for g, t in zip(big, touches) if not t)
    out = [dict(area=len(g), cx=math.fsum(x for x, _ in g) / len(g), cy=math.fsum(y for _, y in g) / len(g)) for _, g in inner]
    return dict(width=w, height=h, count=len(out), border_count=sum(touches), blobs=out)


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
