#!/usr/bin/env bash
# Honest partial: the repairs the first session points at -- a PGM reader for header comments,
# 16-bit and ASCII samples; dark subtraction before the flat field; saturation at the file's maxval;
# the 4-neighbour Laplacian. The tile levels, the registration (sign, unnormalised sum, every frame
# against the first), the common field of view and the audit command are left as shipped.
set -euo pipefail
cat > /app/scopekit/pgm.py <<'PY'
"""PGM reader: P5 (1 or 2 bytes per sample) and P2, with header comments."""


class PgmError(ValueError):
    pass


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    head, used = [], 0
    while len(head) < 4:
        line = lines[used]
        used += 1
        head.extend(line.split(b"#")[0].split())
    magic, w, h, mv = head[0], int(head[1]), int(head[2]), int(head[3])
    body = b"\n".join(lines[used:])
    if magic == b"P2":
        vals = [int(v) for v in body.split()][:w * h]
    elif mv < 256:
        vals = list(body[:w * h])
    else:
        vals = [body[2 * k] * 256 + body[2 * k + 1] for k in range(w * h)]
    return w, h, mv, [vals[r * w:(r + 1) * w] for r in range(h)]
PY
python3 - <<'PY'
def patch(p, pairs):
    s = open(p).read()
    for old, new in pairs:
        assert s.count(old) == 1, "partial patch does not apply: %r" % old
        s = s.replace(old, new)
    open(p, "w").write(s)

patch("/app/scopekit/calib.py", [
    ('    mean_flat = sum(map(sum, flat)) / (w * h)\n'
     '    return [[raw[y][x] / flat[y][x] * mean_flat - dark[y][x] if flat[y][x] > 0 else 0.0 for x in range(w)]\n',
     '    mean_gain = sum(flat[y][x] - dark[y][x] for y in range(h) for x in range(w)) / (w * h)\n'
     '    return [[(raw[y][x] - dark[y][x]) / (flat[y][x] - dark[y][x]) * mean_gain if flat[y][x] > dark[y][x] else 0.0\n'
     '             for x in range(w)]\n'),
])
patch("/app/scopekit/metrics.py", [
    ("for v in r if v >= 255) / n", "for v in r if v >= maxval) / n"),
    ("row[x + 1] - 5 * row[x]", "row[x + 1] - 4 * row[x]"),
])
PY
