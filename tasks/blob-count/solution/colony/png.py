"""A PNG reader: every colour type, 8/16-bit samples, the five row filters, Adam7, split IDAT."""
import struct, zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Adam7 passes: (first column, first row, column step, row step)
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class Image:
    def __init__(self, width, height, ctype, depth, pixels, palette=None, trns=None):
        self.width, self.height = width, height
        self.ctype, self.depth = ctype, depth
        self.pixels = pixels          # rows of sample tuples
        self.palette = palette        # list of (r, g, b) or None
        self.trns = trns              # list of palette alphas or None


def read_chunks(data):
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG file")
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IEND":
            return


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    if pb <= pc:
        return b
    return c


def unfilter_rows(raw, offset, row_bytes, nrows, bpp):
    """Undoes the per-row filters of one (sub)image; returns (rows, next offset)."""
    out, prior = [], bytearray(row_bytes)
    for _ in range(nrows):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + row_bytes])
        offset += 1 + row_bytes
        for i in range(row_bytes):
            left = line[i - bpp] if i >= bpp else 0
            up = prior[i]
            upleft = prior[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, upleft)) & 0xFF
            elif kind != 0:
                raise ValueError("bad filter type %d" % kind)
        out.append(line)
        prior = line
    return out, offset


def split_samples(line, count, channels, depth):
    """One row of bytes -> `count` tuples of `channels` samples."""
    px = []
    if depth == 8:
        for i in range(count):
            px.append(tuple(line[i * channels:(i + 1) * channels]))
    else:
        step = 2 * channels
        for i in range(count):
            chunk = line[i * step:(i + 1) * step]
            px.append(tuple((chunk[2 * k] << 8) | chunk[2 * k + 1] for k in range(channels)))
    return px


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    header, palette, trns, compressed = None, None, None, []
    for kind, body in read_chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, len(body) - 2, 3)]
        elif kind == b"tRNS":
            trns = list(body)
        elif kind == b"IDAT":
            compressed.append(body)
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = header
    if depth not in (8, 16) or ctype not in CHANNELS:
        raise ValueError("unsupported PNG: depth %d colour type %d" % (depth, ctype))
    raw = zlib.decompress(b"".join(compressed))
    channels = CHANNELS[ctype]
    bpp = channels * depth // 8
    pixels = [[None] * width for _ in range(height)]
    passes = ADAM7 if interlace == 1 else [(0, 0, 1, 1)]
    offset = 0
    for x0, y0, dx, dy in passes:
        cols = (width - x0 + dx - 1) // dx
        nrows = (height - y0 + dy - 1) // dy
        if cols <= 0 or nrows <= 0:
            continue
        lines, offset = unfilter_rows(raw, offset, cols * bpp, nrows, bpp)
        for j, line in enumerate(lines):
            row = pixels[y0 + j * dy]
            for i, px in enumerate(split_samples(line, cols, channels, depth)):
                row[x0 + i * dx] = px
    return Image(width, height, ctype, depth, pixels, palette, trns)
