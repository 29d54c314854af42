"""Minimal PNG reader: 8-bit greyscale, RGB and RGBA, non-interlaced, all five row filters."""
import json
import struct
import zlib


class PngError(ValueError):
    pass


class Image:
    def __init__(self, width, height, rgb, meta):
        self.width, self.height, self.rgb, self.meta = width, height, rgb, meta
        # 1 where a pixel is black ink (every channel <= 60), row-major
        self.ink = bytes(1 if rgb[i] <= 60 and rgb[i + 1] <= 60 and rgb[i + 2] <= 60 else 0
                         for i in range(0, len(rgb), 3))

    def px(self, x, y):
        i = 3 * (y * self.width + x)
        return self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise PngError("not a PNG file: %s" % path)
    pos, idat, meta, head = 8, [], {}, None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"tEXt":
            key, _, text = body.partition(b"\x00")
            if key == b"figdig":
                meta = json.loads(text.decode("latin-1"))
        elif kind == b"IEND":
            break
    if head is None:
        raise PngError("no IHDR")
    w, h, depth, ctype, _, _, interlace = head
    chans = {0: 1, 2: 3, 6: 4}.get(ctype)
    if depth != 8 or chans is None or interlace:
        raise PngError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, ctype, interlace))
    raw = zlib.decompress(b"".join(idat))
    stride = w * chans
    out = bytearray()
    prev = bytearray(stride)
    p = 0
    for _ in range(h):
        ft = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if ft == 1:
            for i in range(chans, stride):
                line[i] = (line[i] + line[i - chans]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - chans] if i >= chans else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                left = line[i - chans] if i >= chans else 0
                up_left = prev[i - chans] if i >= chans else 0
                line[i] = (line[i] + _paeth(left, prev[i], up_left)) & 255
        elif ft != 0:
            raise PngError("bad filter type %d" % ft)
        out += line
        prev = line
    if chans == 3:
        rgb = bytes(out)
    elif chans == 1:
        rgb = bytes(v for v in out for _ in range(3))
    else:
        rgb = bytes(b for i in range(0, len(out), 4) for b in out[i:i + 3])
    return Image(w, h, rgb, meta)
