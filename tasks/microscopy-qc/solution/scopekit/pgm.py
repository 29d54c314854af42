"""PGM reader: P5 (binary, 1 or 2 bytes per sample, big-endian) and P2 (ASCII), comments in the header."""


class PgmError(ValueError):
    pass


def _tokens(data, count):
    """The first `count` header tokens and the offset just after the last one."""
    out, i, n = [], 0, len(data)
    while len(out) < count:
        while i < n and data[i:i + 1].isspace():
            i += 1
        if i < n and data[i:i + 1] == b"#":
            while i < n and data[i:i + 1] not in (b"\n", b"\r"):
                i += 1
            continue
        j = i
        while j < n and not data[j:j + 1].isspace() and data[j:j + 1] != b"#":
            j += 1
        if j == i:
            raise PgmError("truncated header")
        out.append(data[i:j])
        i = j
    return out, i


def read_pgm(path):
    """Returns (width, height, maxval, rows) with rows a list of lists of ints."""
    with open(path, "rb") as f:
        data = f.read()
    (magic, w, h, mv), end = _tokens(data, 4)
    w, h, mv = int(w), int(h), int(mv)
    if magic == b"P2":
        vals = []
        for line in data[end:].split(b"\n"):
            line = line.split(b"#", 1)[0]
            vals.extend(int(v) for v in line.split())
        vals = vals[:w * h]
    elif magic == b"P5":
        body = data[end + 1:]
        if mv < 256:
            vals = list(body[:w * h])
        else:
            vals = [(body[2 * k] << 8) | body[2 * k + 1] for k in range(w * h)]
    else:
        raise PgmError("%s: not a PGM file" % path)
    if len(vals) != w * h:
        raise PgmError("%s: %d samples, expected %d" % (path, len(vals), w * h))
    return w, h, mv, [vals[r * w:(r + 1) * w] for r in range(h)]
