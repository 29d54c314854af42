"""PGM reader for the facility's cameras (binary P5 files)."""


class PgmError(ValueError):
    pass


def read_pgm(path):
    """Returns (width, height, maxval, rows) with rows a list of lists of ints."""
    with open(path, "rb") as f:
        data = f.read()
    magic, w, h, mv, body = data.split(None, 4)
    if magic != b"P5":
        raise PgmError("%s: not a binary PGM file" % path)
    w, h, mv = int(w), int(h), int(mv)
    vals = list(body[:w * h])
    if len(vals) != w * h:
        raise PgmError("%s: %d samples, expected %d" % (path, len(vals), w * h))
    return w, h, mv, [vals[r * w:(r + 1) * w] for r in range(h)]
