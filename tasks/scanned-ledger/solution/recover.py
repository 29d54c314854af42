#!/usr/bin/env python3
"""Recovers a printed ledger table from a scan: PNG decode, speck removal, skew search, rule-based
cell segmentation (merged cells from missing rules), glyph matching, totals reconciliation."""
import csv, json, os, struct, sys, zlib
from decimal import Decimal

INK = 128
HERE = os.path.dirname(os.path.abspath(__file__))
SHEET = os.path.join(HERE, "font", "glyphs.png")
ORDER = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.,/&"
SCALE, ADV = 2, 12


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def read_png(path):
    """Grey levels (0-255) as a list of bytearrays; 8-bit grey, grey+alpha, RGB or RGBA."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG file" % path)
    pos, idat, hdr = 8, bytearray(), None
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        pos += 12 + ln
        if typ == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat += body
        elif typ == b"IEND":
            break
    w, h, depth, ctype, _, _, inter = hdr
    if depth != 8 or inter != 0 or ctype not in (0, 2, 4, 6):
        raise ValueError("unsupported PNG (depth %d, colour type %d, interlace %d)" % (depth, ctype, inter))
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(bytes(idat))
    stride, pos, prev, rows = w * bpp, 0, bytearray(w * bpp), []
    for _ in range(h):
        ft = raw[pos]
        cur = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            if ft == 1:
                cur[i] = (cur[i] + a) & 255
            elif ft == 2:
                cur[i] = (cur[i] + prev[i]) & 255
            elif ft == 3:
                cur[i] = (cur[i] + ((a + prev[i]) >> 1)) & 255
            elif ft == 4:
                cur[i] = (cur[i] + paeth(a, prev[i], prev[i - bpp] if i >= bpp else 0)) & 255
        prev = cur
        if ctype in (0, 4):
            rows.append(bytearray(cur[0::bpp]))
        else:
            rows.append(bytearray((299 * cur[i] + 587 * cur[i + 1] + 114 * cur[i + 2]) // 1000
                                  for i in range(0, stride, bpp)))
    return rows


def ink_map(grey):
    return [bytearray(1 if v < INK else 0 for v in row) for row in grey]


def despeck(ink):
    """Drops dark pixels with no dark 8-neighbour (scanner specks)."""
    h, w = len(ink), len(ink[0])
    out = [bytearray(r) for r in ink]
    for y in range(h):
        row = ink[y]
        for x in range(w):
            if row[x]:
                alone = True
                for yy in range(max(0, y - 1), min(h, y + 2)):
                    r2 = ink[yy]
                    for xx in range(max(0, x - 1), min(w, x + 2)):
                        if (yy != y or xx != x) and r2[xx]:
                            alone = False
                            break
                    if not alone:
                        break
                if alone:
                    out[y][x] = 0
    return out


def find_skew(ink):
    """(sign, period) of the column-step shear that makes the rows sharpest, or None."""
    h, w = len(ink), len(ink[0])
    pre = [[0] * h]
    for x in range(w):
        last = pre[-1]
        pre.append([last[y] + ink[y][x] for y in range(h)])

    def score(sgn, per):
        acc = [0] * (h + 2 * (w // 40 + 2))
        off = w // 40 + 2
        for g in range(0, (w - 1) // per + 1):
            a, b = g * per, min(w, (g + 1) * per)
            d = off - sgn * g
            pa, pb = pre[a], pre[b]
            for y in range(h):
                acc[y + d] += pb[y] - pa[y]
        return sum(v * v for v in acc)

    best, arg = score(1, w + 1), None
    for per in range(40, 161):
        for sgn in (1, -1):
            s = score(sgn, per)
            if s > best:
                best, arg = s, (sgn, per)
    return arg


def unshear(ink, skew):
    if skew is None:
        return ink
    sgn, per = skew
    h, w = len(ink), len(ink[0])
    out = [bytearray(w) for _ in range(h)]
    for x in range(w):
        d = sgn * (x // per)
        for y in range(h):
            src = y + d
            if 0 <= src < h:
                out[y][x] = ink[src][x]
    return out


def runs(flags):
    out, start = [], None
    for i, f in enumerate(flags + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i))
            start = None
    return out


def load_glyphs(path=SHEET):
    g = ink_map(read_png(path))
    tpl = {}
    for i, ch in enumerate(ORDER):
        cx, cy = (i % 16) * 6, (i // 16) * 8
        code = 0
        for r in range(7):
            for c in range(5):
                code = code * 2 + g[cy + r][cx + c]
        tpl[ch] = code
    return tpl


def slot_code(ink, x0, y0):
    code = 0
    for r in range(7):
        ya, yb = ink[y0 + 2 * r], ink[y0 + 2 * r + 1]
        for c in range(5):
            xa = x0 + 2 * c
            n = 0
            if 0 <= xa:
                n += ya[xa] + yb[xa]
            if 0 <= xa + 1 < len(ya):
                n += ya[xa + 1] + yb[xa + 1]
            code = code * 2 + (1 if n >= 2 else 0)
    return code


def read_cell(ink, x0, x1, top, tpl):
    cols = [x for x in range(x0, x1) if any(ink[top + r][x] for r in range(7 * SCALE))]
    if not cols:
        return ""
    a, b = cols[0], cols[-1]
    best = None
    for ox in range(ADV):
        start = a - ox
        cost, text = 0, []
        x = start
        while x <= b:
            code = slot_code(ink, x, top)
            if code == 0:
                text.append(" ")
            else:
                d, ch = min((bin(code ^ t).count("1"), ch) for ch, t in tpl.items())
                cost += d
                text.append(ch)
            x += ADV
        if best is None or cost < best[0]:
            best = (cost, "".join(text).strip())
    return best[1]


def segment(ink):
    h, w = len(ink), len(ink[0])
    # A rule is one unbroken run of ink across most of the page; text never has long runs.
    hrules = runs([max(map(len, bytes(r).split(b"\x00"))) >= w // 2 for r in ink])
    top_rule = ink[hrules[0][0]]
    xs = [x for x in range(w) if top_rule[x]]
    left, right = xs[0], xs[-1] + 1
    bands = [(a[1], b[0]) for a, b in zip(hrules, hrules[1:])]
    per_band = []
    for y0, y1 in bands:
        per_band.append([all(ink[y][x] for y in range(y0, y1)) for x in range(w)])
    votes = [sum(pb[x] for pb in per_band) for x in range(w)]
    vrules = runs([left <= x < right and votes[x] * 2 > len(bands) for x in range(w)])
    return bands, vrules, per_band


def recover(path):
    tpl = load_glyphs()
    ink = despeck(ink_map(read_png(path)))
    ink = unshear(ink, find_skew(ink))
    bands, vrules, per_band = segment(ink)
    ncol = len(vrules) - 1
    table, merged = [], []
    for (y0, y1), present in zip(bands, per_band):
        inner = [x for j in range(ncol) for x in range(vrules[j][1], vrules[j + 1][0])]
        ys = [y for y in range(y0, y1) if any(ink[y][x] for x in inner)]
        row = [""] * ncol
        j, wide = 0, False
        while j < ncol:
            k = j
            while k + 1 < ncol and not all(present[x] for x in range(*vrules[k + 1])):
                k += 1
            if ys:
                row[j] = read_cell(ink, vrules[j][1], vrules[k + 1][0], ys[0], tpl)
            wide = wide or k > j
            j = k + 1
        table.append(row)
        merged.append(wide)
    return table, merged


def amount(s):
    return Decimal(s.replace(",", "")) if s.strip() else Decimal(0)


def reconcile(table, merged):
    head, total = table[0], table[-1]
    data = [r for r, m in zip(table[1:-1], merged[1:-1]) if not m]
    bad_rows = [r[0] for r in data if sum(amount(v) for v in r[1:-1]) != amount(r[-1])]
    bad_totals = [head[j] for j in range(1, len(head))
                  if sum(amount(r[j]) for r in data) != amount(total[j])]
    return {"bad_rows": bad_rows, "bad_totals": bad_totals}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: recover.py SCAN.png OUT_DIR")
    table, merged = recover(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    with open(os.path.join(sys.argv[2], "table.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(table)
    with open(os.path.join(sys.argv[2], "check.json"), "w") as f:
        json.dump(reconcile(table, merged), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
