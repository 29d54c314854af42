"""Duplicate merging and edge/vertex topology of a triangle mesh."""
from collections import Counter


class _DSU:
    def __init__(self, n):
        self.p = list(range(n))

    def find(self, x):
        while self.p[x] != x:
            self.p[x] = self.p[self.p[x]]
            x = self.p[x]
        return x

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            self.p[rb] = ra


def merge_vertices(points, tol):
    """Clusters of vertices within tol of each other (transitively). Returns (remap, new_points):
    remap[i] is vertex i's new index; a cluster keeps the coordinates of its first vertex."""
    n = len(points)
    dsu = _DSU(n)
    cell = tol if tol > 0 else 1.0
    grid = {}
    for i, (x, y) in enumerate(points):
        grid.setdefault((int(x // cell), int(y // cell)), []).append(i)
    for (gx, gy), members in grid.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((gx + dx, gy + dy), ()):
                    for i in members:
                        if i < j:
                            px, py = points[i]
                            qx, qy = points[j]
                            if (px - qx) ** 2 + (py - qy) ** 2 <= tol * tol:
                                dsu.union(i, j)
    remap, new_points, seen = [0] * n, [], {}
    for i in range(n):
        r = dsu.find(i)
        if r not in seen:
            seen[r] = len(new_points)
            new_points.append(points[r])
        remap[i] = seen[r]
    return remap, new_points


def remap_triangles(triangles, remap):
    """Triangles in merged indexes; those with two equal corners are collapsed and dropped."""
    kept, collapsed = [], 0
    for t in triangles:
        a, b, c = (remap[v] for v in t)
        if a == b or b == c or a == c:
            collapsed += 1
        else:
            kept.append((a, b, c))
    return kept, collapsed


def edge_counts(triangles):
    counts = Counter()
    for a, b, c in triangles:
        for u, v in ((a, b), (b, c), (c, a)):
            counts[(u, v) if u < v else (v, u)] += 1
    return counts


def boundary_edges(counts):
    return [e for e, k in counts.items() if k == 1]


def nonmanifold_edges(counts):
    return [e for e, k in counts.items() if k >= 3]


def components(triangles, nverts):
    """Connected components of triangles; two triangles are connected when they share a vertex."""
    dsu = _DSU(nverts)
    used = set()
    for a, b, c in triangles:
        dsu.union(a, b)
        dsu.union(b, c)
        used.update((a, b, c))
    return len({dsu.find(v) for v in used})


def boundary_loops(edges, nverts):
    """Connected components of the graph formed by the boundary edges."""
    dsu = _DSU(nverts)
    used = set()
    for u, v in edges:
        dsu.union(u, v)
        used.update((u, v))
    return len({dsu.find(v) for v in used})
