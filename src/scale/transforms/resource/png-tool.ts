/**
 * A standalone Python 3 (standard library) tool placed in the environment by image-rotate:
 * decodes an 8-bit RGB/RGBA non-interlaced PNG (any filter types), rotates it clockwise by
 * 90, 180 or 270 degrees, and writes it back as an unfiltered PNG of the same colour type.
 */
export const PNG_ROTATE_PY = `#!/usr/bin/env python3
"""Rotate an 8-bit RGB/RGBA non-interlaced PNG clockwise.

usage: python3 png_rotate.py IN.png OUT.png DEGREES   (DEGREES: 90, 180 or 270)
"""
import struct
import sys
import zlib

SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"


def fail(message):
    sys.stderr.write("png_rotate: " + message + "\\n")
    sys.exit(1)


def unfilter(kind, line, prev, bpp):
    n = len(line)
    if kind == 0:
        return
    for i in range(n):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        if kind == 1:
            pred = a
        elif kind == 2:
            pred = b
        elif kind == 3:
            pred = (a + b) >> 1
        elif kind == 4:
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        else:
            fail("unknown filter type %d" % kind)
        line[i] = (line[i] + pred) & 255


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != SIGNATURE:
        fail(path + ": not a PNG file")
    pos, header, idat = 8, None, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        fail(path + ": no IHDR chunk")
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace != 0:
        fail(path + ": only 8-bit RGB/RGBA non-interlaced PNG is supported")
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        line = bytearray(raw[start + 1:start + 1 + stride])
        unfilter(raw[start], line, prev, bpp)
        rows.append(line)
        prev = line
    return width, height, color, bpp, rows


def rotate(width, height, bpp, rows, degrees):
    def px(x, y):
        return bytes(rows[y][x * bpp:(x + 1) * bpp])
    if degrees == 180:
        return width, height, [b"".join(px(width - 1 - x, height - 1 - y) for x in range(width)) for y in range(height)]
    if degrees == 90:
        return height, width, [b"".join(px(y, height - 1 - x) for x in range(height)) for y in range(width)]
    if degrees == 270:
        return height, width, [b"".join(px(width - 1 - y, x) for x in range(height)) for y in range(width)]
    fail("degrees must be 90, 180 or 270")


def chunk(kind, body):
    crc = zlib.crc32(kind + body) & 0xFFFFFFFF
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def write_png(path, width, height, color, rows):
    raw = b"".join(b"\\x00" + bytes(r) for r in rows)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main(argv):
    if len(argv) != 4:
        fail("usage: python3 png_rotate.py IN.png OUT.png DEGREES")
    width, height, color, bpp, rows = read_png(argv[1])
    w, h, out = rotate(width, height, bpp, rows, int(argv[3]))
    write_png(argv[2], w, h, color, out)


if __name__ == "__main__":
    main(sys.argv)
`;
