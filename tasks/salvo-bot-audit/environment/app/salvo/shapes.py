"""Ship shapes: rows of '#' and '.' separated by '/', e.g. '###/.#.' (a tee)."""


def parse_shape(text):
    cells = []
    for r, line in enumerate(text.strip().split("/")):
        for c, ch in enumerate(line):
            if ch == "#":
                cells.append((c, r))
            elif ch != ".":
                raise ValueError("bad shape %r" % text)
    if not cells:
        raise ValueError("empty shape %r" % text)
    return normalise(cells)


def normalise(cells):
    """Shift so the smallest column and row are 0; a sorted tuple."""
    c0 = min(c for c, _ in cells)
    r0 = min(r for _, r in cells)
    return tuple(sorted((c - c0, r - r0) for c, r in cells))


def rotate(cells):
    """A quarter turn clockwise (rows go down): (c, r) -> (-r, c)."""
    return normalise([(r, c) for c, r in cells])


def mirror(cells):
    return normalise([(-c, r) for c, r in cells])


def orientations(cells, mode):
    """Distinct orientations allowed by rotate = no | yes | mirror."""
    base = normalise(cells)
    if mode == "no":
        return [base]
    starts = [base, mirror(base)] if mode == "mirrored" else [base]
    out = []
    for s in starts:
        cur = s
        for _ in range(4):
            if cur not in out:
                out.append(cur)
            cur = rotate(cur)
    return out
