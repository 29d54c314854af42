"""Minimal PNG reader for the scanner's labels: 8-bit greyscale, non-interlaced, filters 0-4."""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PngError(ValueError):
    pass


def _chunks(blob):
    pos = len(SIGNATURE)
    while pos + 8 <= len(blob):
        (size,) = struct.unpack(">I", blob[pos:pos + 4])
        tag = blob[pos + 4:pos + 8]
        yield tag, blob[pos + 8:pos + 8 + size]
        pos += size + 12
        if tag == b"IEND":
            return


def _predict(ftype, left, up, upleft):
    if ftype == 1:
        return left
    if ftype == 2:
        return up
    if ftype == 3:
        return (left + up) // 2
    if ftype == 4:
        est = left + up - upleft
        da, db, dc = abs(est - left), abs(est - up), abs(est - upleft)
        if da <= db and da <= dc:
            return left
        return up if db <= dc else upleft
    return 0


def read_grey(path):
    """(width, height, rows) with rows a list of bytearrays of grey values."""
    with open(path, "rb") as fh:
        blob = fh.read()
    if not blob.startswith(SIGNATURE):
        raise PngError("%s: not a PNG file" % path)
    width = height = None
    stream = b""
    for tag, body in _chunks(blob):
        if tag == b"IHDR":
            width, height, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body[:13])
            if depth != 8 or ctype != 0 or lace != 0:
                raise PngError("%s: only 8-bit grey non-interlaced PNGs are supported" % path)
        elif tag == b"IDAT":
            stream = body
    if width is None:
        raise PngError("%s: no IHDR chunk" % path)
    raw = zlib.decompress(stream)
    rows = []
    prev = bytearray(width)
    for y in range(height):
        start = y * (width + 1)
        ftype = raw[start]
        src = raw[start + 1:start + 1 + width]
        cur = bytearray(width)
        for x in range(width):
            left = cur[x - 1] if x else 0
            upleft = prev[x - 1] if x else 0
            cur[x] = (src[x] + _predict(ftype, left, prev[x], upleft)) & 255
        rows.append(cur)
        prev = cur
    return width, height, rows
