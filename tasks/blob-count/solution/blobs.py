#!/usr/bin/env python3
"""Reference blob counter: a full PNG decoder (all colour types, 8/16-bit, filters, Adam7) + CCL."""
import json, struct, sys, zlib

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(data, pos, w, h, bpp):
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for _ in range(h):
        ft = data[pos]
        cur = bytearray(data[pos + 1: pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                cur[i] = (cur[i] + a) & 255
            elif ft == 2:
                cur[i] = (cur[i] + b) & 255
            elif ft == 3:
                cur[i] = (cur[i] + ((a + b) >> 1)) & 255
            elif ft == 4:
                cur[i] = (cur[i] + paeth(a, b, c)) & 255
        rows.append(cur)
        prev = cur
    return rows, pos


def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, plte, trns = 8, b"", None, None
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8: pos + 8 + ln]
        pos += 12 + ln
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
        elif typ == b"PLTE":
            plte = [tuple(body[i:i + 3]) for i in range(0, len(body), 3)]
        elif typ == b"tRNS":
            trns = list(body)
        elif typ == b"IDAT":
            idat += body
        elif typ == b"IEND":
            break
    raw = zlib.decompress(idat)
    ch = CHANNELS[ctype]
    bps = depth // 8
    bpp = ch * bps
    img = [[None] * w for _ in range(h)]
    passes = ADAM7 if inter == 1 else [(0, 0, 1, 1)]
    p = 0
    for x0, y0, dx, dy in passes:
        pw, ph = (w - x0 + dx - 1) // dx, (h - y0 + dy - 1) // dy
        if pw <= 0 or ph <= 0:
            continue
        rows, p = unfilter(raw, p, pw, ph, bpp)
        for j, row in enumerate(rows):
            for i in range(pw):
                px = row[i * bpp:(i + 1) * bpp]
                s = [px[k] for k in range(ch)] if bps == 1 else [(px[2 * k] << 8) | px[2 * k + 1] for k in range(ch)]
                img[y0 + j * dy][x0 + i * dx] = s
    m = (1 << depth) - 1
    t = 128 if depth == 8 else 32896
    fg = [[False] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            s = img[y][x]
            if ctype == 0:
                lum, a = 1000 * s[0], m
            elif ctype == 4:
                lum, a = 1000 * s[0], s[1]
            elif ctype == 2:
                lum, a = 299 * s[0] + 587 * s[1] + 114 * s[2], m
            elif ctype == 6:
                lum, a = 299 * s[0] + 587 * s[1] + 114 * s[2], s[3]
            else:
                r, g_, b = plte[s[0]]
                lum = 299 * r + 587 * g_ + 114 * b
                a = trns[s[0]] if trns is not None and s[0] < len(trns) else 255
            fg[y][x] = lum * a >= 1000 * t * m
    return w, h, fg


def components(w, h, fg):
    seen = [[False] * w for _ in range(h)]
    blobs, border = [], 0
    for y in range(h):
        for x in range(w):
            if not fg[y][x] or seen[y][x]:
                continue
            stack, pix = [(x, y)], []
            seen[y][x] = True
            while stack:
                cx, cy = stack.pop()
                pix.append((cx, cy))
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        nx, ny = cx + dx, cy + dy
                        if 0 <= nx < w and 0 <= ny < h and fg[ny][nx] and not seen[ny][nx]:
                            seen[ny][nx] = True
                            stack.append((nx, ny))
            if len(pix) < 6:
                continue
            if any(px in (0, w - 1) or py in (0, h - 1) for px, py in pix):
                border += 1
                continue
            n = len(pix)
            blobs.append(dict(area=n, cx=round(sum(p[0] for p in pix) / n, 2), cy=round(sum(p[1] for p in pix) / n, 2)))
    blobs.sort(key=lambda b: (b["cy"], b["cx"]))
    return dict(width=w, height=h, count=len(blobs), border_count=border, blobs=blobs)


if __name__ == "__main__":
    w, h, fg = decode(sys.argv[1])
    print(json.dumps(components(w, h, fg)))
