#!/usr/bin/env python3
"""Ledger scan -> CSV.  First cut, written against the scans from the old flatbed (plain white paper).

usage: python3 recover.py SCAN.png OUT_DIR      (writes OUT_DIR/table.csv)

Known gaps:
  * only greyscale PNGs; the other filter types never showed up in the old scanner's files
  * TODO: the totals check that audit asked for (check.json)
  * the new feeder's scans come out wrong, not looked at yet
"""
import csv, os, struct, sys, zlib

DARK = 230          # paper is 255, anything below is print
GLYPH_W, GLYPH_H, ADVANCE = 10, 14, 12
FONT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font", "glyphs.png")
FONT_ORDER = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.,/&"


def load_png(path):
    blob = open(path, "rb").read()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    i, z = 8, b""
    while i < len(blob):
        n, kind = struct.unpack(">I4s", blob[i:i + 8])
        if kind == b"IHDR":
            width, height, _, colour, _, _, _ = struct.unpack(">IIBBBBB", blob[i + 8:i + 8 + n])
            assert colour == 0, "greyscale scans only"
        if kind == b"IDAT":
            z += blob[i + 8:i + 8 + n]
        i += n + 12
    data = zlib.decompress(z)
    img, above = [], bytearray(width)
    for y in range(height):
        line = data[y * (width + 1):(y + 1) * (width + 1)]
        f, px = line[0], bytearray(line[1:])
        for x in range(width):
            if f == 1 and x > 0:
                px[x] = (px[x] + px[x - 1]) % 256
            elif f == 2:
                px[x] = (px[x] + above[x]) % 256
        img.append(px)
        above = px
    return img


def glyph_table():
    sheet = load_png(FONT)
    table = {}
    for n, ch in enumerate(FONT_ORDER):
        x0, y0 = (n % 16) * 6, (n // 16) * 8
        key = tuple(tuple(sheet[y0 + r][x0 + c] < DARK for c in range(5)) for r in range(7))
        table[key] = ch
    return table


def read_text(img, x0, x1, y0, glyphs):
    dark_cols = [x for x in range(x0, x1) if any(img[y][x] < DARK for y in range(y0, y0 + GLYPH_H))]
    if not dark_cols:
        return ""
    out, x = "", dark_cols[0]
    while x <= dark_cols[-1]:
        key = tuple(tuple(img[y0 + 2 * r][x + 2 * c] < DARK for c in range(5)) for r in range(7))
        if not any(any(k) for k in key):
            out += " "
        else:
            out += glyphs.get(key, "?")
        x += ADVANCE
    return out.strip()


def main():
    scan, out_dir = sys.argv[1], sys.argv[2]
    img = load_png(scan)
    h, w = len(img), len(img[0])
    glyphs = glyph_table()

    # table rules: rows that are dark across most of the page
    ruled = [sum(v < DARK for v in img[y]) > w // 2 for y in range(h)]
    rules = [y for y in range(h) if ruled[y] and (y == 0 or not ruled[y - 1])]
    ends = [y for y in range(h) if ruled[y] and (y == h - 1 or not ruled[y + 1])]
    bands = [(ends[k] + 1, rules[k + 1]) for k in range(len(rules) - 1)]

    # columns: split the header line at the gaps between its words
    y0, y1 = bands[0]
    dark = [sum(img[y][x] < DARK for y in range(y0, y1)) for x in range(w)]
    inked = [x for x in range(w) if 0 < dark[x] < (y1 - y0)]
    words, start = [], inked[0]
    for a, b in zip(inked, inked[1:]):
        if b - a > 8:
            words.append((start, a))
            start = b
    words.append((start, inked[-1]))
    cuts = [0] + [(words[k][1] + words[k + 1][0]) // 2 for k in range(len(words) - 1)] + [w]

    rows = []
    for y0, y1 in bands:
        top = y0 + (y1 - y0 - GLYPH_H) // 2
        rows.append([read_text(img, cuts[k], cuts[k + 1], top, glyphs) for k in range(len(cuts) - 1)])

    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "table.csv"), "w", newline="") as f:
        csv.writer(f).writerows(rows)


if __name__ == "__main__":
    main()
