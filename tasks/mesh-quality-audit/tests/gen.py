"""Mesh batches with planted properties, for the grader (and make_examples.py).

Every statistic of the report is known by construction: each feature (a structured block with
rectangular holes, a bowtie, a non-manifold fan, a sliver strip, a lone triangle, duplicate and
near-miss vertices, dangling nodes, collapsed and inverted triangles) adds a known amount to each
count. Only the smallest angle is computed here, from the coordinates as written, by atan2 of the
cross and dot products of the corner vectors (the representative of a planted cluster of duplicates
is the member written first). The generator then checks that no angle lies near a bin edge or the
sliver threshold, so the rules have one answer.
"""
import math

CODES = ("INVERTED", "DUPLICATE", "NONMANIFOLD", "HOLE", "SLIVER", "DANGLING")
COLUMNS = ("mesh", "vertices", "dangling", "merged", "triangles", "collapsed", "area", "inverted",
           "boundary_edges", "nonmanifold_edges", "boundary_loops", "components", "euler",
           "min_angle", "angle_bins")


class GenError(Exception):
    pass


class Mesh:
    def __init__(self, rng, tol):
        self.rng = rng
        self.tol = tol
        self.pts = []        # (x, y)
        self.root = []       # planted cluster: the original vertex this one merges into
        self.cells = []      # [a, b, c] triangles, [a, b, c, d] quads (two triangles)
        self.collapsed = set()   # indexes of cells that collapse on merging
        self.points = []     # msh point elements (vertex ids)
        self.lines = []      # msh line elements (a, b)
        self.interior = []   # block-interior vertex ids free for a duplicate or a near miss
        self.led = {"vertices": 0, "dangling": 0, "merged": 0, "triangles": 0, "collapsed": 0,
                    "area": 0.0, "inverted": 0, "boundary_edges": 0, "nonmanifold_edges": 0,
                    "boundary_loops": 0, "components": 0, "euler": 0}
        self.holes = 0
        self.x = rng.uniform(-3.0, 3.0)
        self.y0 = rng.uniform(-3.0, 3.0)

    def add(self, x, y, root=None):
        self.pts.append((x, y))
        self.root.append(len(self.pts) - 1 if root is None else root)
        return len(self.pts) - 1

    def feature(self, verts, tris, loops=1, euler=1, boundary=None, nonmanifold=0):
        ids = [self.add(self.x + x, self.y0 + y) for x, y in verts]
        area = 0.0
        for t in tris:
            a, b, c = (self.pts[ids[k]] for k in t)
            s = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
            if s <= 0:
                raise GenError("feature triangle not counter-clockwise")
            area += s / 2
            self.cells.append([ids[k] for k in t])
        w = max(x for x, _ in verts) - min(x for x, _ in verts)
        self.x += w + self.rng.uniform(0.5, 1.0)
        L = self.led
        L["vertices"] += len(verts)
        L["triangles"] += len(tris)
        L["area"] += area
        L["boundary_edges"] += boundary
        L["nonmanifold_edges"] += nonmanifold
        L["boundary_loops"] += loops
        L["components"] += 1
        L["euler"] += euler
        return ids


def grid(m, nx, ny, h, nholes, jitter, quad_rate=0.0, lines=0):
    rng = m.rng
    removed, holes = set(), []
    tries = 0
    while len(holes) < nholes:
        tries += 1
        if tries > 500:
            raise GenError("no room for %d holes in %dx%d" % (nholes, nx, ny))
        a, b = rng.randint(1, 3), rng.randint(1, 3)
        if nx - a - 1 < 1 or ny - b - 1 < 1:
            continue
        ci, cj = rng.randint(1, nx - a - 1), rng.randint(1, ny - b - 1)
        halo = {(i, j) for i in range(ci - 1, ci + a + 1) for j in range(cj - 1, cj + b + 1)}
        if halo & removed:
            continue
        removed |= {(i, j) for i in range(ci, ci + a) for j in range(cj, cj + b)}
        holes.append((a, b))

    def present(i, j):
        return 0 <= i < nx and 0 <= j < ny and (i, j) not in removed

    x0, y0 = m.x, m.y0
    vid = {}
    for i in range(nx + 1):
        for j in range(ny + 1):
            n = sum(present(i + di, j + dj) for di in (-1, 0) for dj in (-1, 0))
            if n == 0:
                continue
            x, y = x0 + i * h, y0 + j * h
            if n == 4:
                x += rng.uniform(-1, 1) * jitter * h
                y += rng.uniform(-1, 1) * jitter * h
            vid[i, j] = m.add(x, y)
            if n == 4:
                m.interior.append(vid[i, j])
    cells = 0
    for i in range(nx):
        for j in range(ny):
            if not present(i, j):
                continue
            cells += 1
            p00, p10, p11, p01 = vid[i, j], vid[i + 1, j], vid[i + 1, j + 1], vid[i, j + 1]
            diag = rng.random() < 0.5
            if rng.random() < quad_rate:
                m.cells.append([p00, p10, p11, p01] if diag else [p10, p11, p01, p00])
            elif diag:
                m.cells += [[p00, p10, p11], [p00, p11, p01]]
            else:
                m.cells += [[p00, p10, p01], [p10, p11, p01]]
    outer = [((i, 0), (i + 1, 0)) for i in range(nx)] + [((nx, j), (nx, j + 1)) for j in range(ny)]
    for a, b in rng.sample(outer, min(lines, len(outer))):
        m.lines.append((vid[a], vid[b]))
    k = len(holes)
    L = m.led
    L["vertices"] += len(vid)
    L["triangles"] += 2 * cells
    L["area"] += h * h * cells
    L["boundary_edges"] += 2 * (nx + ny) + sum(2 * (a + b) for a, b in holes)
    L["boundary_loops"] += 1 + k
    L["components"] += 1
    L["euler"] += 1 - k
    m.holes += k
    m.x += nx * h + rng.uniform(0.5, 1.0)


def tri_cells(m):
    return [c for k, c in enumerate(m.cells) if len(c) == 3 and k not in m.collapsed]


def invert(m, count):
    cand = [c for c in tri_cells(m) if c[1] >= 0]
    for c in m.rng.sample(cand, count):
        c[1], c[2] = c[2], c[1]
        m.led["inverted"] += 1


def take_interior(m):
    if not m.interior:
        raise GenError("no interior vertex left")
    v = m.rng.choice(m.interior)
    m.interior.remove(v)
    return v


def duplicate(m, referenced=True, chain=False, collapse=False):
    """A copy of an interior vertex within the tolerance (a chain: a second copy within the
    tolerance of the first but beyond it from the original, merged transitively)."""
    rng = m.rng
    v = take_interior(m)
    x, y = m.pts[v]
    th = rng.uniform(0, 2 * math.pi)
    r1 = rng.uniform(0.6 if chain else 0.2, 0.9) * m.tol
    copies = [m.add(x + r1 * math.cos(th), y + r1 * math.sin(th), root=v)]
    if chain:
        r2 = rng.uniform(0.6, 0.9) * m.tol
        copies.append(m.add(x + (r1 + r2) * math.cos(th), y + (r1 + r2) * math.sin(th), root=v))
    m.led["merged"] += len(copies)
    holding = [c for k, c in enumerate(m.cells) if v in c and k not in m.collapsed]
    if referenced:
        for d in copies:
            still = [c for c in holding if v in c]
            for c in rng.sample(still, rng.randint(1, max(1, len(still) // 2))):
                c[c.index(v)] = d
    if collapse:
        w = next(u for u in holding[0] if m.root[u] != v)
        m.collapsed.add(len(m.cells))
        m.cells.append([v, copies[-1], w])
        m.led["collapsed"] += 1
    return v


def near_miss(m):
    """An unreferenced node just beyond the tolerance from a vertex, on a diagonal (inside the
    tolerance's square, outside its circle)."""
    rng = m.rng
    v = take_interior(m)
    x, y = m.pts[v]
    r = rng.uniform(1.1, 1.3) * m.tol
    th = math.radians(45 + 90 * rng.randint(0, 3) + rng.uniform(-4, 4))
    m.add(x + r * math.cos(th), y + r * math.sin(th))
    m.led["dangling"] += 1


def dangling(m, point_element=False):
    d = m.add(m.x, m.y0 + m.rng.uniform(-1, 1))
    m.x += m.rng.uniform(0.3, 0.6)
    m.led["dangling"] += 1
    if point_element:
        m.points.append(d)


def bowtie(m):
    rng = m.rng
    s = rng.uniform(0.3, 0.8)
    a, b = rng.uniform(0.35, 0.6), rng.uniform(0.35, 0.6)
    verts = [(s, s), (0, s - a * s), (0, s + a * s), (2 * s, s - b * s), (2 * s, s + b * s)]
    # two triangles touching at one vertex: one component (joined by a vertex), one boundary loop
    m.feature(verts, [(0, 2, 1), (0, 3, 4)], loops=1, euler=1, boundary=6)


def fan(m):
    rng = m.rng
    s = rng.uniform(0.4, 0.9)
    verts = [(0, 0), (s, 0), (s * rng.uniform(0.4, 0.6), s * rng.uniform(0.7, 0.95)),
             (s * rng.uniform(0.4, 0.6), -s * rng.uniform(0.5, 0.9)),
             (s * rng.uniform(0.25, 0.4), s * rng.uniform(0.3, 0.45))]
    # three triangles on the edge 0-1: one non-manifold edge, six boundary edges, one loop
    m.feature(verts, [(0, 1, 2), (1, 0, 3), (0, 1, 4)], loops=1, euler=1, boundary=6,
              nonmanifold=1)


def strip(m):
    rng = m.rng
    L = rng.uniform(0.5, 1.2)
    w = L * math.tan(math.radians(rng.uniform(1.5, 7.0)))
    m.feature([(0, 0), (L, 0), (L, w), (0, w)], [(0, 1, 2), (0, 2, 3)], boundary=4)


def island(m):
    rng = m.rng
    s = rng.uniform(0.3, 0.7)
    m.feature([(0, 0), (s, rng.uniform(-0.1, 0.1) * s), (s * rng.uniform(0.3, 0.7), s * rng.uniform(0.6, 1.0))],
              [(0, 1, 2)], boundary=3)


# ---------------------------------------------------------------------------------------------
# expected values

def corner_min_angle(a, b, c):
    best = 180.0
    for p, q, r in ((a, b, c), (b, c, a), (c, a, b)):
        ux, uy = q[0] - p[0], q[1] - p[1]
        vx, vy = r[0] - p[0], r[1] - p[1]
        ang = math.degrees(math.atan2(abs(ux * vy - uy * vx), ux * vx + uy * vy))
        best = min(best, ang)
    return best


def expected(m, order, sliver_deg):
    pos = {v: k for k, v in enumerate(order)}
    rep = {}
    for v in order:
        rep.setdefault(m.root[v], v)
    mins = []
    neg = 0
    for k, c in enumerate(m.cells):
        if k in m.collapsed:
            continue
        tris = [c] if len(c) == 3 else [[c[0], c[1], c[2]], [c[0], c[2], c[3]]]
        for t in tris:
            a, b, cc = (m.pts[rep[m.root[v]]] for v in t)
            s = (b[0] - a[0]) * (cc[1] - a[1]) - (b[1] - a[1]) * (cc[0] - a[0])
            neg += s < 0
            mins.append(corner_min_angle(a, b, cc))
    if neg != m.led["inverted"] or len(mins) != m.led["triangles"]:
        raise GenError("ledger disagrees with the written triangles")
    for a in mins:
        if abs(a - sliver_deg) < 0.05 or min(abs(a - 10 * k) for k in range(1, 6)) < 1e-6:
            raise GenError("angle %r too near an edge" % a)
    bins = [0] * 6
    for a in mins:
        bins[min(int(a // 10), 5)] += 1
    row = dict(m.led)
    row["min_angle"] = min(mins)
    row["angle_bins"] = bins
    del pos
    return row


def codes_of(row, declared_holes, sliver_deg):
    out = set()
    if row["inverted"]:
        out.add("INVERTED")
    if row["merged"]:
        out.add("DUPLICATE")
    if row["nonmanifold_edges"]:
        out.add("NONMANIFOLD")
    if row["boundary_loops"] - row["components"] != declared_holes:
        out.add("HOLE")
    if row["min_angle"] < sliver_deg:
        out.add("SLIVER")
    if row["dangling"]:
        out.add("DANGLING")
    return out


# ---------------------------------------------------------------------------------------------
# writers

def fmt(v):
    return repr(float(v))


def write_off(m, rng, hard, inline_header=False):
    n = len(m.pts)
    order = list(range(n))
    if hard:
        rng.shuffle(order)
    idx = {v: k for k, v in enumerate(order)}
    cells = [list(c) for c in m.cells]
    rng.shuffle(cells)
    faces = []
    for c in cells:
        if len(c) == 3:
            r = rng.randint(0, 2)
            c = c[r:] + c[:r]
        faces.append(c)
    ntri = len(faces)
    out = ["# mesh export %d" % rng.randint(100, 999)] if rng.random() < 0.5 else []
    if inline_header or (hard and rng.random() < 0.5):
        out.append("OFF %d %d 0" % (n, ntri))
    else:
        out += ["OFF", "# vertices faces edges", "%d %d 0" % (n, ntri)]
    two_d = hard and rng.random() < 0.5
    commented = rng.randint(0, n - 1)
    for k, v in enumerate(order):
        x, y = m.pts[v]
        line = "%s %s" % (fmt(x), fmt(y)) + ("" if two_d else " 0.0")
        if k == commented or (hard and rng.random() < 0.05):
            line += "  # node %d" % k
        out.append(line)
        if hard and rng.random() < 0.03:
            out.append("")
    if hard:
        out.append("# faces")
    for c in faces:
        out.append("%d %s" % (len(c), " ".join(str(idx[v]) for v in c)))
        if hard and rng.random() < 0.03:
            out.append("   ")
    return ("\n".join(out) + "\n").encode(), order


def write_msh(m, rng, hard):
    n = len(m.pts)
    order = list(range(n))
    if hard:
        rng.shuffle(order)
        ids = rng.sample(range(1, 6 * n + 10), n)
    else:
        ids = list(range(1, n + 1))
    nid = {v: ids[k] for k, v in enumerate(order)}
    out = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat"]
    if hard and rng.random() < 0.6:
        out += ["$PhysicalNames", "2", '1 1 "wall"', '2 7 "domain"', "$EndPhysicalNames"]
    if rng.random() < 0.5:
        out += ["$Comments", "exported by the campaign mesher; node ids are not positions",
                "$EndComments"]
    out += ["$Nodes", str(n)]
    for v in order:
        x, y = m.pts[v]
        out.append("%d %s %s 0" % (nid[v], fmt(x), fmt(y)))
    out.append("$EndNodes")
    elems = []
    for a, b in m.lines:
        elems.append((1, [nid[a], nid[b]]))
    for c in m.cells:
        tris = [c] if len(c) == 3 else [[c[0], c[1], c[2]], [c[0], c[2], c[3]]]
        for t in tris:
            elems.append((2, [nid[v] for v in t]))
    for p in m.points:
        elems.append((15, [nid[p]]))
    if hard:
        rng.shuffle(elems)
    out += ["$Elements", str(len(elems))]
    for k, (typ, nodes) in enumerate(elems):
        ntags = rng.randint(0, 4) if hard else 2
        tags = [rng.randint(1, 9) for _ in range(ntags)]
        out.append(" ".join(str(x) for x in [k + 1, typ, ntags] + tags + nodes))
    out.append("$EndElements")
    return ("\n".join(out) + "\n").encode(), order


# ---------------------------------------------------------------------------------------------
# batches

def plain_grid(m, rng, holes=None, jitter=0.12, quad_rate=0.0, lines=0, big=False):
    nx, ny = rng.randint(5, 9 if big else 7), rng.randint(5, 9 if big else 7)
    h = rng.uniform(0.05, 0.25)
    grid(m, nx, ny, h, rng.randint(0, 1) if holes is None else holes, jitter, quad_rate, lines)


def mesh_for(kind, rng, tol, j):
    """Returns (mesh, format, hard writer?, declared holes)."""
    m = Mesh(rng, tol)
    fmt_ = "off" if j % 2 == 0 else "msh"
    hard = kind != "example"
    if kind == "readers":
        plain_grid(m, rng, quad_rate=rng.uniform(0.3, 0.7) if fmt_ == "off" else 0.0,
                   lines=rng.randint(0, 6))
        if rng.random() < 0.5:
            island(m)
        if fmt_ == "msh" and rng.random() < 0.7:
            dangling(m, point_element=True)
    elif kind == "merge":
        plain_grid(m, rng, big=True, quad_rate=0.2 if fmt_ == "off" else 0.0)
        duplicate(m, referenced=True, chain=rng.random() < 0.5, collapse=rng.random() < 0.6)
        if rng.random() < 0.8:
            duplicate(m, referenced=False)
        for _ in range(rng.randint(1, 2)):
            near_miss(m)
        if rng.random() < 0.3:
            dangling(m, point_element=fmt_ == "msh")
    elif kind == "topology":
        plain_grid(m, rng, holes=rng.randint(1, 2), big=True)
        if rng.random() < 0.5:
            plain_grid(m, rng, holes=rng.randint(0, 1))
        if rng.random() < 0.7:
            bowtie(m)
        if rng.random() < 0.7:
            fan(m)
        if rng.random() < 0.4:
            island(m)
    elif kind == "quality":
        plain_grid(m, rng, jitter=0.2, quad_rate=0.3 if fmt_ == "off" else 0.0)
        if rng.random() < 0.85:
            invert(m, rng.randint(1, 3))
        if rng.random() < 0.6:
            strip(m)
    elif kind in ("audit", "example", "campaign"):
        want = {c for c in CODES if rng.random() < 0.38}
        plain_grid(m, rng, quad_rate=0.25 if fmt_ == "off" else 0.0, lines=rng.randint(0, 3))
        if rng.random() < 0.4:
            plain_grid(m, rng, holes=rng.randint(0, 1))
        if rng.random() < 0.35:
            bowtie(m)
        if "INVERTED" in want:
            invert(m, rng.randint(1, 2))
        if "DUPLICATE" in want:
            duplicate(m, referenced=rng.random() < 0.4, collapse=rng.random() < 0.6)
        if "NONMANIFOLD" in want:
            fan(m)
        if "SLIVER" in want:
            strip(m)
        if "DANGLING" in want:
            if rng.random() < 0.5:
                near_miss(m)
            else:
                dangling(m, point_element=fmt_ == "msh")
        declared = m.holes
        if "HOLE" in want:
            declared = m.holes - 1 if m.holes and rng.random() < 0.7 else m.holes + 1
        return m, fmt_, hard, declared
    else:
        raise GenError("unknown kind %s" % kind)
    return m, fmt_, hard, m.holes


def build(rng, kind, n=None):
    """A batch folder: files {name: bytes}, expected {"report": [row], "audit": [(mesh, codes)]}."""
    # An audit batch needs a clean mesh (about a third of the attempts have one): a later success
    # is the same batch whatever the limit, so the limit only bounds the time.
    for _attempt in range(80):
        try:
            return _build(rng, kind, n)
        except GenError:
            continue
    raise GenError("no valid %s batch in 80 attempts" % kind)


def _build(rng, kind, n):
    n = n or (8 if kind in ("audit", "campaign") else 6)
    tol = 10 ** rng.uniform(-4.5, -3.2)
    sliver_deg = round(rng.uniform(10.5, 14.5), 1)
    files, rows, audit, entries = {}, [], [], []
    names = set()
    for j in range(n):
        m, f, hard, declared = mesh_for(kind, rng, tol, j)
        stem = "%s-%02d" % (rng.choice(["plate", "bracket", "duct", "fin", "web", "rib", "flange"]), j)
        name = stem + "." + f
        if name in names:
            raise GenError("name clash")
        names.add(name)
        if f == "off":
            data, order = write_off(m, rng, hard, inline_header=hard and j == 0)
        else:
            data, order = write_msh(m, rng, hard)
        row = expected(m, order, sliver_deg)
        row["mesh"] = name
        files[name] = data
        rows.append(row)
        audit.append((name, codes_of(row, declared, sliver_deg)))
        entries.append({"file": name, "holes": declared})
    if kind in ("audit", "campaign") and not any(not c for _, c in audit):
        raise GenError("no clean mesh")
    order = list(range(n))
    batch = {"name": "%s batch" % kind, "merge_tol": tol, "sliver_deg": sliver_deg,
             "meshes": entries}
    import json
    files["batch.json"] = (json.dumps(batch, indent=2) + "\n").encode()
    del order
    return files, {"report": rows, "audit": audit}


def report_csv(rows):
    lines = [",".join(COLUMNS)]
    for r in rows:
        vals = []
        for c in COLUMNS:
            v = r[c]
            if c == "angle_bins":
                vals.append(";".join(str(x) for x in v))
            elif c in ("area", "min_angle"):
                vals.append("%.12g" % v)
            else:
                vals.append(str(v))
        lines.append(",".join(vals))
    return "\n".join(lines) + "\n"


def audit_csv(audit):
    lines = ["mesh,codes"]
    for name, codes in audit:
        lines.append("%s,%s" % (name, ";".join(c for c in CODES if c in codes) or "OK"))
    return "\n".join(lines) + "\n"
