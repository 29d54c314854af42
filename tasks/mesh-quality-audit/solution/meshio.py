"""Readers for the two mesh formats of SPEC.md: OFF-like (.off) and Gmsh-2-ASCII-like (.msh)."""
import os


class MeshError(Exception):
    """A mesh file that does not follow SPEC.md."""


class Mesh:
    """Vertices in file order and triangles as 0-based indexes into them."""

    def __init__(self, name, points, triangles):
        self.name = name
        self.points = points
        self.triangles = triangles


def _strip(line):
    return line.split("#", 1)[0].strip()


def read_off(path):
    with open(path) as f:
        lines = [s for s in (_strip(l) for l in f) if s]
    if not lines:
        raise MeshError("%s: empty file" % path)
    head = lines[0].split()
    if head[0] != "OFF":
        raise MeshError("%s: no OFF header" % path)
    k = 1
    counts = head[1:]
    if not counts:
        counts = lines[1].split()
        k = 2
    nv, nf = int(counts[0]), int(counts[1])
    points = []
    for i in range(nv):
        p = lines[k + i].split()
        points.append((float(p[0]), float(p[1])))
    k += nv
    tris = []
    for i in range(nf):
        p = lines[k + i].split()
        n = int(p[0])
        idx = [int(x) for x in p[1:1 + n]]
        if n == 3:
            tris.append((idx[0], idx[1], idx[2]))
        elif n == 4:
            tris.append((idx[0], idx[1], idx[2]))
            tris.append((idx[0], idx[2], idx[3]))
        else:
            raise MeshError("%s: face with %d corners" % (path, n))
    return Mesh(os.path.basename(path), points, tris)


def _sections(lines):
    out = {}
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith("$") and not s.startswith("$End"):
            name = s[1:]
            j = i + 1
            while j < len(lines) and lines[j].strip() != "$End" + name:
                j += 1
            out[name] = [l.strip() for l in lines[i + 1:j] if l.strip()]
            i = j + 1
        else:
            i += 1
    return out


def read_msh(path):
    with open(path) as f:
        sec = _sections(f.read().splitlines())
    if "Nodes" not in sec or "Elements" not in sec:
        raise MeshError("%s: $Nodes or $Elements missing" % path)
    nodes = sec["Nodes"]
    n = int(nodes[0])
    points, index = [], {}
    for line in nodes[1:1 + n]:
        p = line.split()
        index[int(p[0])] = len(points)
        points.append((float(p[1]), float(p[2])))
    elems = sec["Elements"]
    tris = []
    for line in elems[1:1 + int(elems[0])]:
        p = [int(x) for x in line.split()]
        typ, ntags = p[1], p[2]
        if typ != 2:
            continue
        ref = p[3 + ntags:3 + ntags + 3]
        tris.append(tuple(index[r] for r in ref))
    return Mesh(os.path.basename(path), points, tris)


def read_mesh(path):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".off":
        return read_off(path)
    if ext == ".msh":
        return read_msh(path)
    raise MeshError("%s: unknown mesh format" % path)
