"""Seeded ledger scans, built by construction: the table's cells (with planted reconciliation
errors) are chosen first, then printed with the typeface onto ruled paper, sheared, speckled and
written as a PNG. The expected CSV rows and check lists are the chosen cells, never a reading of
the image."""
import struct, zlib
from decimal import Decimal

from typeface import bitmap

S = 2            # every font pixel is an S x S block of image pixels
PITCH = 6 * S    # glyph advance
GW, GH = 5 * S, 7 * S
RULE = 2         # table rule thickness in pixels

HEADS = ["NET", "VAT", "FREIGHT", "DUTY", "FEES", "Q1", "Q2", "Q3", "Q4", "JAN", "FEB", "MAR",
         "APR", "LABOUR", "PARTS", "OTHER"]
FIRST = ["ITEM", "ACCOUNT", "CODE", "REF"]
WORDS = ["RENT", "POWER", "TRAVEL", "STAFF", "PARTS", "IT", "POST", "FEES", "AUDIT", "LEGAL", "TAX",
         "R&D", "P&L", "H/O", "FLEET", "WATER"]
SECTION = ["SECTION", "PART", "SCHEDULE", "OPERATING", "CAPITAL", "TRAVEL", "SUBSISTENCE",
           "BROUGHT", "FORWARD", "OVERHEADS", "&", "B", "C", "2", "3", "EXPENSES", "SUNDRY"]


def money(c):
    """Cents as printed: optional minus, thousands commas, two decimals."""
    s = "-" if c < 0 else ""
    a = abs(c)
    return s + "{:,}".format(a // 100) + ".%02d" % (a % 100)


def cents(s):
    return 0 if s == "" else int(Decimal(s.replace(",", "")) * 100)


def label(rng, used):
    while True:
        p = "".join(rng.choice("ABCDEFGHKLMNPRSTW") for _ in range(rng.randint(1, 2)))
        t = "%s-%0*d" % (p, rng.randint(2, 4), rng.randint(1, 9999) % (10 ** rng.randint(2, 4)))
        if rng.random() < 0.4:
            t += " " + rng.choice(WORDS)
        if t not in used:
            used.add(t)
            return t


def table(rng, sections):
    """Header, data rows (planted row-total typos), section rows and the totals row."""
    m = rng.randint(2, 4)
    heads = [rng.choice(FIRST)] + sorted(rng.sample(HEADS, m), key=HEADS.index) + ["TOTAL"]
    n = rng.randint(8, 13)
    used, data = set(), []
    for _ in range(n):
        big = rng.random() < 0.3
        vals = []
        for j in range(m):
            if rng.random() < 0.08 and j > 0:
                vals.append(None)
            elif rng.random() < 0.1:
                vals.append(-rng.randint(1, 90000))
            else:
                vals.append(rng.randint(1, 250000000 if big else 900000))
        data.append([label(rng, used), vals])
    bad_rows = sorted(rng.sample(range(n), rng.choice([0, 1, 1, 2, 2, 3])))
    rows, printed_totals = [], []
    for i, (lab, vals) in enumerate(data):
        tot = sum(v or 0 for v in vals)
        if i in bad_rows:
            tot += rng.choice([-1, 1]) * rng.choice([1, 9, 10, 90, 100, 900, 1000, 90000, 100000])
        printed_totals.append(tot)
        rows.append([lab] + ["" if v is None else money(v) for v in vals] + [money(tot)])
    col_sums = [sum(cents(r[j]) for r in rows) for j in range(1, m + 2)]
    bad_cols = sorted(rng.sample(range(m + 1), rng.choice([0, 0, 1, 1, 2])))
    for j in bad_cols:
        col_sums[j] += rng.choice([-1, 1]) * rng.choice([1, 10, 100, 1000, 9000, 100000])
    total_row = ["TOTAL"] + [money(c) for c in col_sums]
    kinds = ["data"] * n
    for _ in range(sections):
        k = rng.randint(0, len(rows))
        rows.insert(k, None)
        kinds.insert(k, "section")
    exp = {
        "bad_rows": [data[i][0] for i in bad_rows],
        "bad_totals": [heads[j + 1] for j in bad_cols],
    }
    return heads, rows, kinds, total_row, exp


def section_text(rng, lo, hi):
    """Words whose printed width is more than lo and at most hi pixels."""
    for _ in range(200):
        words = [rng.choice(SECTION)]
        while len(" ".join(words)) * PITCH - 2 <= lo:
            words.append(rng.choice(SECTION))
        t = " ".join(words)
        if len(t) * PITCH - 2 <= hi:
            return t
    return "SECTION " + "B" * max(1, (lo // PITCH) - 7)


class Page:
    def __init__(self, w, h, paper):
        self.w, self.h = w, h
        self.px = [[paper() for _ in range(w)] for _ in range(h)]

    def ink(self, x, y, v):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y][x] = min(self.px[y][x], v)


def render(rng, kind, heads, rows, kinds, total_row):
    noisy = kind in ("noisy", "skewed", "merged", "example2")
    hpad, vpad = rng.randint(4, 9), rng.randint(4, 7)
    ncol = len(heads)
    # Section rows are placeholders (None) until the column widths are known.
    body = [heads] + [r for r in rows if r is not None] + [total_row]
    widths = []
    for j in range(ncol):
        chars = max(len(r[j]) for r in body)
        widths.append(chars * PITCH - 2 + 2 * hpad + rng.randint(0, 20))
    row_h = GH + 2 * vpad
    all_rows = [heads] + rows + [total_row]
    all_kinds = ["head"] + kinds + ["total"]
    skew = (rng.choice([-1, 1]), rng.randint(40, 160)) if kind in ("skewed", "example2") else None
    left = rng.randint(8, 20)
    table_w = sum(widths) + RULE * (ncol + 1)
    table_h = len(all_rows) * row_h + RULE * (len(all_rows) + 1)
    W = left + table_w + rng.randint(8, 20)
    drift = (W - 1) // skew[1] if skew else 0
    top = rng.randint(8, 16) + (drift if skew and skew[0] < 0 else 0)
    H = top + table_h + rng.randint(8, 16) + (drift if skew and skew[0] > 0 else 0)
    paper = (lambda: rng.randint(236, 255)) if noisy else (lambda: 255)
    page = Page(W, H, paper)
    inkv = (lambda: rng.randint(0, 55)) if noisy else (lambda: rng.randint(0, 20))
    # Faint ruled paper: grey guide lines at the paper's own pitch, under everything printed.
    grey = rng.randint(150, 215)
    y = rng.randint(0, 12)
    while y < H:
        for x in range(W):
            page.px[y][x] = min(page.px[y][x], grey + rng.randint(-4, 4))
        y += rng.randint(18, 30)
    x = rng.randint(0, 40)
    while x < W:
        for yy in range(H):
            page.px[yy][x] = min(page.px[yy][x], grey + rng.randint(-4, 4))
        x += rng.randint(45, 90)
    xs = [left]
    for wd in widths:
        xs.append(xs[-1] + RULE + wd)
    ys = [top + i * (row_h + RULE) for i in range(len(all_rows) + 1)]
    x_end = xs[-1] + RULE
    for yr in ys:
        for yy in range(yr, yr + RULE):
            for x in range(left, x_end):
                page.ink(x, yy, inkv())
    for i, kd in enumerate(all_kinds):
        y0, y1 = ys[i] + RULE, ys[i + 1]
        for j, xr in enumerate(xs):
            if kd == "section" and 0 < j < ncol:
                continue
            for yy in range(y0, y1):
                for x in range(xr, xr + RULE):
                    page.ink(x, yy, inkv())
    pepper = 0.05 if noisy else 0.0

    def text(s, x0, y0):
        for k, ch in enumerate(s):
            bm = bitmap(ch)
            for r in range(7):
                for c in range(5):
                    if not bm[r][c]:
                        continue
                    bx, by = x0 + k * PITCH + c * S, y0 + r * S
                    hole = rng.randrange(S * S) if rng.random() < pepper else -1
                    for d in range(S * S):
                        if d != hole:
                            page.ink(bx + d % S, by + d // S, inkv())

    out_rows = []
    for i, (r, kd) in enumerate(zip(all_rows, all_kinds)):
        gy = ys[i] + RULE + vpad
        if kd == "section":
            lo = widths[0] - hpad
            hi = xs[-1] - xs[0] - RULE - 2 * hpad
            t = section_text(rng, lo, hi)
            text(t, xs[0] + RULE + hpad, gy)
            out_rows.append([t] + [""] * (ncol - 1))
            continue
        for j, cell in enumerate(r):
            if j == 0:
                text(cell, xs[0] + RULE + hpad, gy)
            else:
                text(cell, xs[j + 1] - hpad - (len(cell) * PITCH - 2), gy)
        out_rows.append(list(r))
    px = page.px
    if skew:
        sgn, per = skew
        sheared = [[0] * W for _ in range(H)]
        for x in range(W):
            d = sgn * (x // per)
            for yy in range(H):
                src = yy - d
                sheared[yy][x] = px[src][x] if 0 <= src < H else paper()
        px = sheared
    if noisy:
        # Scanner specks: single dark pixels with no other dark pixel around them.
        n = int(W * H * rng.uniform(0.002, 0.005))
        for _ in range(n):
            x, yy = rng.randrange(1, W - 1), rng.randrange(1, H - 1)
            if all(px[yy + dy][x + dx] >= 128 for dy in (-1, 0, 1) for dx in (-1, 0, 1)):
                px[yy][x] = rng.randint(0, 60)
    return px, out_rows, skew


def chunk(typ, body):
    return struct.pack(">I", len(body)) + typ + body + struct.pack(">I", zlib.crc32(typ + body) & 0xFFFFFFFF)


def pred(ft, a, b, c):
    if ft == 0:
        return 0
    if ft == 1:
        return a
    if ft == 2:
        return b
    if ft == 3:
        return (a + b) // 2
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def encode(rng, px, rgb):
    h, w = len(px), len(px[0])
    bpp = 3 if rgb else 1
    raw, prev = bytearray(), bytearray(w * bpp)
    for row in px:
        if rgb:
            cur = bytearray()
            for v in row:
                if v in (0, 255) or rng.random() < 0.7:
                    cur += bytes((v, v, v))
                else:
                    cur += bytes((max(0, min(255, v + rng.randint(-2, 2))), v, max(0, min(255, v + rng.randint(-2, 2)))))
        else:
            cur = bytearray(row)
        ft = rng.randrange(5)
        raw.append(ft)
        for i in range(len(cur)):
            a = cur[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            raw.append((cur[i] - pred(ft, a, prev[i], c)) & 255)
        prev = cur
    z = zlib.compress(bytes(raw), 9)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if rgb else 0, 0, 0, 0))
    out += chunk(b"tEXt", b"Software\x00ledger scanner 3.1")
    pos = 0
    while pos < len(z):
        step = rng.randint(2000, 20000)
        out += chunk(b"IDAT", z[pos:pos + step])
        pos += step
    return out + chunk(b"IEND", b"")


PLAN = {
    # kind: (sections, rgb probability)
    "plain": (0, 0.0),
    "noisy": (1, 0.5),
    "skewed": (1, 0.3),
    "merged": (None, 0.3),
    "example1": (0, 0.0),
    "example2": (2, 1.0),
}


def build(rng, kind):
    """One scan: returns (png bytes, expected {rows, kinds, bad_rows, bad_totals, skew})."""
    sections, prgb = PLAN[kind]
    if sections is None:
        sections = rng.randint(2, 3)
    heads, rows, kinds, total_row, exp = table(rng, sections)
    px, out_rows, skew = render(rng, kind, heads, rows, kinds, total_row)
    exp["rows"] = out_rows
    exp["kinds"] = ["head"] + kinds + ["total"]
    exp["skew"] = skew
    return encode(rng, px, rng.random() < prgb), exp
