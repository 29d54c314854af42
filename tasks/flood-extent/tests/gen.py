"""Seeded flood scenes built from their plan.

A scene is planned first on a ground grid of cells (integer column, row): which cells are
permanent water, which are newly flooded, which are cloud, cloud shadow or fill on each date, which
post-event tiles are shifted against their stated georeference. Only then are the band values and
QA codes drawn for each (date, cell), cut into tiles on two different tile grids and written as
PNG files through the kit's encoder. The answers are counted from the plan in integers: district
membership by a scanline pass over each district's rings in grid units (exact fractions), never
from the rendered files and never with the program under test.
"""
import json
import math
from fractions import Fraction
from math import gcd
from operator import add, itemgetter

from lh import Raster, choice_of, encode_png, randbelow_many, randint_of

M = 12  # margin of planned cells around the covered area (shifted tiles read from it)
KNOBS = {
    # px: pixel sizes; shuffle: band order per scene drawn; clouds/shadows: blobs per date;
    # qa_extra: other QA bits on cloud pixels; fill: a fill wedge; quarter: a tile at exactly 25%;
    # misreg: shifted post tiles; enclave: a two-island district cut out of the strips; outside: a
    # district away from the scene.
    "ex1": dict(px=[10], shuffle=False, clouds=(1, 1), shadows=(0, 0), qa_extra=False, fill=False, quarter=False,
                misreg=0, enclave=False, outside=False, strips=3, tile=(32, 32)),
    "ex2": dict(px=[20], shuffle=True, clouds=(1, 2), shadows=(1, 1), qa_extra=True, fill=False, quarter=True,
                misreg=1, enclave=True, outside=False, strips=3, tile=(24, 32)),
    "plain": dict(px=[20, 30], shuffle=False, clouds=(1, 2), shadows=(0, 0), qa_extra=False, fill=False,
                  quarter=False, misreg=0, enclave=False, outside=False, strips=4, tile=(24, 32)),
    "bands": dict(px=[20, 30, 60], shuffle=True, clouds=(1, 2), shadows=(0, 1), qa_extra=False, fill=False,
                  quarter=False, misreg=0, enclave=False, outside=False, strips=4, tile=(20, 32)),
    "districts": dict(px=[20, 30], shuffle=False, clouds=(0, 1), shadows=(0, 0), qa_extra=False, fill=False,
                      quarter=False, misreg=0, enclave=True, outside=True, strips=3, tile=(24, 32)),
    "clouds": dict(px=[20, 30], shuffle=True, clouds=(3, 5), shadows=(2, 3), qa_extra=True, fill=True,
                   quarter=True, misreg=0, enclave=False, outside=False, strips=4, tile=(24, 32)),
    "audit": dict(px=[20, 30], shuffle=True, clouds=(1, 3), shadows=(1, 2), qa_extra=True, fill=False,
                  quarter=True, misreg=2, enclave=False, outside=False, strips=4, tile=(24, 32)),
}
BANDS = ["B02", "B03", "B04", "B08"]  # blue, green, red, near infrared
NAMES = ["Alder", "Brookside", "Carrow", "Dunmere", "Elmstead", "Fenwick", "Glenhollow", "Harbury", "Ivybridge",
         "Kestrel", "Lowmoor", "Marsh End", "Northwold", "Oxley"]


def safe_dir(dx, dy):
    """An edge between grid vertices never passes through a cell centre iff, reduced, dx + dy is odd."""
    g = gcd(abs(dx), abs(dy))
    return g > 0 and (abs(dx) // g + abs(dy) // g) % 2 == 1


class Plan:
    def __init__(self, rng, kind):
        self.rng, self.kind, self.k = rng, kind, KNOBS[kind]
        k = self.k
        self.px = rng.choice(k["px"])
        self.W = rng.randint(66, 76) if k["enclave"] else rng.randint(56, 70)
        self.H = rng.randint(44, 56)
        self.X0 = (rng.randint(2000, 9000) * 100 // self.px) * self.px
        self.Y0 = (rng.randint(40000, 60000) * 100 // self.px) * self.px
        self.cells = [(i, j) for j in range(-M, self.H + M) for i in range(-M, self.W + M)]
        self.plan_water()
        self.plan_sky()
        self.plan_districts()
        self.plan_tiles()
        self.render()

    # --- ground truth ----------------------------------------------------------------------
    def ellipse(self, ci, cj, ri, rj):
        # The cells of self.cells passing the test. Only cells within ri + 1 and rj + 1 of the
        # centre can (any other has a term above 1); they are tried in self.cells' order (rows
        # outer, columns inner), so the set is built by the same insertions.
        i0, i1 = max(-M, math.floor(ci - ri) - 1), min(self.W + M, math.ceil(ci + ri) + 2)
        j0, j1 = max(-M, math.floor(cj - rj) - 1), min(self.H + M, math.ceil(cj + rj) + 2)
        return {(i, j) for j in range(j0, j1) for i in range(i0, i1)
                if ((i - ci) / ri) ** 2 + ((j - cj) / rj) ** 2 <= 1.0}

    def plan_water(self):
        rng = self.rng
        pre = set()
        r = rng.uniform(self.H * 0.3, self.H * 0.7)
        for i in range(-M, self.W + M):
            r = min(self.H * 0.8, max(self.H * 0.2, r + rng.uniform(-1.2, 1.2)))
            w = rng.randint(1, 2)
            for j in range(int(r) - w, int(r) + w + 1):
                pre.add((i, j))
        pre |= self.ellipse(rng.uniform(5, self.W - 5), rng.uniform(5, self.H - 5), rng.uniform(2, 5), rng.uniform(2, 4))
        self.river_rows = r
        self.pre_water = pre
        self.flood_centres = []
        self.post_water = set(pre)
        # A few receded pre-event water cells (dry after the event: not newly flooded).
        for c in rng.sample(sorted(pre), max(3, len(pre) // 25)):
            self.post_water.discard(c)
        # Tie cells: green == nir after the event, NDWI exactly 0: dry.
        free = [c for c in self.cells if c not in pre]
        self.ties = set(rng.sample(free, len(free) // 60))

    def flood(self, centres):
        rng = self.rng
        for (ci, cj) in centres:
            for c in self.ellipse(ci, cj, rng.uniform(3, 9), rng.uniform(2, 7)):
                if c not in self.ties:
                    self.post_water.add(c)

    def plan_sky(self):
        rng, k = self.rng, self.k
        self.cloud = {"pre": {}, "post": {}}  # cell -> "c" cloud, "s" shadow
        self.fill = {"pre": set(), "post": set()}
        for d in ("pre", "post"):
            for _ in range(rng.randint(*k["clouds"])):
                for c in self.ellipse(rng.uniform(0, self.W), rng.uniform(0, self.H), rng.uniform(3, 8), rng.uniform(3, 7)):
                    self.cloud[d][c] = "c"
            for _ in range(rng.randint(*k["shadows"])):
                for c in self.ellipse(rng.uniform(0, self.W), rng.uniform(0, self.H), rng.uniform(2, 4), rng.uniform(2, 4)):
                    self.cloud[d].setdefault(c, "s")
        if k["fill"]:
            cut = rng.randint(14, 22)
            self.fill["post"] = {(i, j) for (i, j) in self.cells if (self.W - i) + j < cut}

    # --- districts -------------------------------------------------------------------------
    def polyline(self, base):
        rng = self.rng
        pts, y = [(base, -M - 4)], -M - 4
        while y < self.H + M + 4:
            while True:
                dy = min(rng.randint(3, 14), self.H + M + 4 - y)
                x = pts[-1][0] + rng.randint(-4, 4)
                x = min(base + 6, max(base - 6, x))
                if safe_dir(x - pts[-1][0], dy):
                    break
            y += dy
            pts.append((x, y))
        return pts

    def plan_districts(self):
        rng, k = self.rng, self.k
        n = k["strips"]
        bases = [round(self.W * (s + 1) / n) for s in range(n - 1)]
        lines = [self.polyline(b) for b in bases]
        left = [(-M - 8, -M - 4), (-M - 8, self.H + M + 4)]
        right = [(self.W + M + 8, -M - 4), (self.W + M + 8, self.H + M + 4)]
        bounds = [left] + lines + [right]
        names = rng.sample(NAMES, n + 2)
        self.districts = []  # (name, [polygons]); polygon = [rings]; ring = [(u, v) grid vertices]
        for s in range(n):
            lft, rgt = bounds[s], bounds[s + 1]
            ring = list(lft) + list(reversed(rgt))
            self.districts.append([names[s], [[ring]]])
        centres = []
        for line in lines:  # floods straddling the boundaries
            u, v = line[rng.randint(1, len(line) - 2)]
            centres.append((u, min(self.H - 4, max(4, v))))
            centres.append((line[0][0] + rng.uniform(-3, 3), self.river_rows + rng.uniform(-3, 3)))
        centres += [(rng.uniform(0, self.W), rng.uniform(0, self.H)) for _ in range(rng.randint(1, 3))]
        if k["enclave"]:
            islands = []
            spans = []
            for s in range(n):
                lo = (bases[s - 1] + 8) if s > 0 else 4
                hi = (bases[s] - 14) if s < n - 1 else self.W - 12
                if hi >= lo:
                    spans.append((s, lo, hi))
            if len(spans) < 2:
                raise ValueError("strips too narrow for islands")
            for s, lo, hi in rng.sample(spans, 2):
                u, v = rng.randint(lo, hi), rng.randint(6, self.H - 18)
                a, h, c = rng.randint(1, 3), rng.randint(4, 9), rng.randint(1, 3)
                ring = [(u, v), (u + 3, v - 2 * a), (u + 6, v), (u + 6, v + h), (u + 3, v + h + 2 * c), (u, v + h)]
                assert all(safe_dir(ring[q][0] - ring[q - 1][0], ring[q][1] - ring[q - 1][1]) for q in range(6))
                islands.append([ring])
                self.districts[s][1][0].append(list(reversed(ring)))  # a hole in the strip
                centres.append((u + 3, v + h // 2))
            self.districts.append([names[n], islands])
        if k["outside"]:
            u, v = self.W + M + 30, -M - 40
            self.districts.append([names[n + 1], [[[(u, v), (u + 9, v), (u + 9, v + 11), (u, v + 11)]]]])
        self.flood(centres)

    # --- tiles -----------------------------------------------------------------------------
    def grid(self, i0, j0, w, h, ts):
        tiles = []
        for r, j in enumerate(range(j0, j0 + h, ts)):
            for c, i in enumerate(range(i0, i0 + w, ts)):
                tiles.append(("R%dC%d" % (r, c), i, j, min(ts, i0 + w - i), min(ts, j0 + h - j)))
        return tiles

    def plan_tiles(self):
        rng, k = self.rng, self.k
        ts_pre, ts_post = k["tile"] if rng.random() < 0.5 else tuple(reversed(k["tile"]))
        self.tiles = {"pre": self.grid(0, 0, self.W, self.H, ts_pre)}
        di, dj = rng.randint(-5, 5), rng.randint(-5, 5)
        if self.kind == "ex1":
            di = dj = 0
            ts_post = ts_pre
        self.tiles["post"] = self.grid(di, dj, self.W, self.H, ts_post)
        self.shift = {}  # post tile id -> (si, sj): content comes from cell + shift
        self.order = {d: (rng.sample(BANDS, 4) if k["shuffle"] and (d == "post" or rng.random() < 0.5) else list(BANDS))
                      for d in ("pre", "post")}
        if k["quarter"]:
            full = [t for t in self.tiles["pre"] if t[3] == t[4] == ts_pre]
            tid, i0, j0, w, h = rng.choice(full)
            cells = [(i, j) for j in range(j0, j0 + h) for i in range(i0, i0 + w)]
            want = len(cells) // 4
            have = [c for c in cells if c in self.cloud["pre"]]
            clear = [c for c in cells if c not in self.cloud["pre"]]
            rng.shuffle(have)
            rng.shuffle(clear)
            while len(have) > want:
                del self.cloud["pre"][have.pop()]
            while len(have) < want:
                c = clear.pop()
                self.cloud["pre"][c] = "c"
                have.append(c)
            self.quarter = ("pre", tid)
        self.misreg_wanted = k["misreg"]

    # --- rendering -------------------------------------------------------------------------
    def render(self):
        k = self.k
        # self.rng's randint and choice, the same draws at a third of the cost (lh.randint_of)
        randint, choice = randint_of(self.rng), choice_of(self.rng)
        # {c: rng.randint(100, 230) for c in self.cells}, drawn at once
        texture = dict(zip(self.cells, [100 + r for r in randbelow_many(self.rng, 131, len(self.cells))]))
        qa_extra, ties = k["qa_extra"], self.ties
        self.pix = {}
        for d in ("pre", "post"):
            water = self.pre_water if d == "pre" else self.post_water
            sky_of, fill = self.cloud[d], self.fill[d]
            px = {}
            for c in self.cells:
                sky = sky_of.get(c)
                if c in fill:
                    px[c] = (0, 0, 0, 0, 1)
                elif sky == "c":
                    qa = 8 | (choice([0, 2, 32, 34, 64]) if qa_extra else 0)
                    px[c] = (randint(180, 250), randint(190, 250), randint(180, 250), randint(190, 250), qa)
                elif sky == "s":
                    qa = 16 | (choice([0, 32]) if qa_extra else 0)
                    px[c] = (randint(5, 30), randint(10, 35), randint(5, 30), randint(10, 40), qa)
                else:
                    qa = 64 | (choice([0, 0, 0, 32]) if qa_extra else 0)
                    if c in water:
                        g, n = randint(50, 90), randint(5, 35)
                    elif c in ties and d == "post":  # waterlogged: NDWI exactly 0, not water
                        g = n = texture[c] + randint(-3, 3)
                    else:
                        g = randint(40, 90)
                        n = texture[c] + (randint(-3, 3) if d == "post" else 0)
                    px[c] = (randint(30, 80), g, randint(20, 70), n, qa)
            self.pix[d] = px
        self.plan_shifts()

    def clear(self, d, c):
        p = self.pix[d].get(c)
        return p is not None and p[4] & 25 == 0

    def dry(self, d, c):
        p = self.pix[d][c]
        return p[1] <= p[3]  # green <= nir: NDWI <= 0

    def plan_shifts(self):
        rng = self.rng
        pre_cov = self.covered("pre")
        cands = [t for t in self.tiles["post"] if t[3] * t[4] >= 400]
        rng.shuffle(cands)
        for tid, i0, j0, w, h in cands:
            if len(self.shift) >= self.misreg_wanted:
                break
            for _ in range(20):
                s = (rng.randint(-3, 3), rng.randint(-3, 3))
                if s == (0, 0):
                    continue
                diffs = []
                for j in range(j0, j0 + h):
                    for i in range(i0, i0 + w):
                        c, src = (i, j), (i + s[0], j + s[1])
                        if (c in pre_cov and self.clear("pre", c) and self.dry("pre", c)
                                and self.clear("post", src) and self.dry("post", src)):
                            diffs.append(abs(self.pix["post"][src][3] - self.pix["pre"][c][3]))
                if len(diffs) >= 80 and sum(diffs) / len(diffs) >= 28:
                    self.shift[tid] = s
                    break
        if len(self.shift) < self.misreg_wanted:
            raise ValueError("could not plant %d shifted tiles" % self.misreg_wanted)

    def covered(self, d, skip_shifted=False):
        out = {}
        for tid, i0, j0, w, h in self.tiles[d]:
            if skip_shifted and tid in self.shift:
                continue
            for j in range(j0, j0 + h):
                for i in range(i0, i0 + w):
                    out[(i, j)] = tid
        return out

    # --- files -----------------------------------------------------------------------------
    def vertex(self, u, v):
        return [self.X0 + u * self.px, self.Y0 - v * self.px]

    def files(self):
        rng = self.rng
        out, index = {}, {"crs": "local metric grid (metres, y up)", "scenes": {}}
        dates = {"pre": "2026-03-%02d" % rng.randint(1, 9), "post": "2026-03-%02d" % rng.randint(14, 28)}
        for d in ("pre", "post"):
            tiles = []
            for tid, i0, j0, w, h in self.tiles[d]:
                s = self.shift.get(tid, (0, 0)) if d == "post" else (0, 0)
                src = [self.pix[d][(i + s[0], j + s[1])] for j in range(j0, j0 + h) for i in range(i0, i0 + w)]
                stem = "%s/%s" % (d, tid)
                for b, band in enumerate(self.order[d]):
                    col = BANDS.index(band)
                    img = Raster(w, h, 1, bytes(map(itemgetter(col), src)))
                    out["%s_b%d.png" % (stem, b + 1)] = encode_png(img, rng.choice(["cycle", 4, "auto", 2, 1]),
                                                                   rng.choice([None, 97, 211, 500]))
                img = Raster(w, h, 1, bytes(map(itemgetter(4), src)))
                out["%s_qa.png" % stem] = encode_png(img, rng.choice(["cycle", 4, 0]), rng.choice([None, 150]))
                tiles.append({"id": tid, "width": w, "height": h, "path": stem,
                              "geotransform": [self.X0 + i0 * self.px, self.px, 0, self.Y0 - j0 * self.px, 0, -self.px]})
            rng.shuffle(tiles)
            index["scenes"][d] = {"date": dates[d], "band_order": self.order[d], "tiles": tiles}
        out["index.json"] = json.dumps(index, indent=1).encode()
        feats = []
        for name, polys in self.districts:
            coords = [[[self.vertex(u, v) for (u, v) in ring + ring[:1]] for ring in poly] for poly in polys]
            geom = ({"type": "Polygon", "coordinates": coords[0]} if len(coords) == 1 and rng.random() < 0.8
                    else {"type": "MultiPolygon", "coordinates": coords})
            feats.append({"type": "Feature", "properties": {"name": name, "code": "D%02d" % rng.randint(1, 99)},
                          "geometry": geom})
        rng.shuffle(feats)
        out["districts.json"] = json.dumps({"type": "FeatureCollection", "features": feats}, indent=1).encode()
        return out

    # --- answers ---------------------------------------------------------------------------
    def members(self, polys):
        """Cells whose centre lies inside (even-odd over every ring): a scanline per row, exact.
        Ring vertices are integers; a crossing x = x0 + (y - y0) (x1 - x0) / (y1 - y0) at
        y = j + 1/2 is kept as the integer x * L, L a common multiple of every 2 (y1 - y0)."""
        cells = set()
        edges = [(ring[q - 1], ring[q]) for poly in polys for ring in poly for q in range(len(ring))]
        assert all(type(v) is int for e in edges for pt in e for v in pt), "ring vertices must be integers"
        L = 2
        for (_, y0), (_, y1) in edges:
            if y1 != y0:
                L = L * 2 * abs(y1 - y0) // gcd(L, 2 * abs(y1 - y0))  # lcm(L, 2 |y1 - y0|)
        for j in range(-M, self.H + M):
            xs = []
            for (x0, y0), (x1, y1) in edges:
                if (y0 > j) != (y1 > j):  # y0 > j + 1/2 iff y0 > j, for an integer y0
                    xs.append(x0 * L + (2 * (j - y0) + 1) * (x1 - x0) * (L // (2 * (y1 - y0))))
            xs.sort()
            for a, b in zip(xs[0::2], xs[1::2]):
                # centres i + 1/2 strictly between a / L and b / L: floor(a / L - 1/2) < i < ceil(b / L - 1/2)
                for i in range((2 * a - L) // (2 * L) + 1, -((L - 2 * b) // (2 * L))):
                    cells.add((i, j))
        return cells

    def answers(self):
        pre_cov = self.covered("pre")
        post_cov = self.covered("post", skip_shifted=True)
        unit = self.px * self.px // 100  # hundredths of a hectare per cell
        flood = {}
        for name, polys in self.districts:
            obs = fl = 0
            for c in self.members(polys):
                if c in pre_cov and c in post_cov and self.clear("pre", c) and self.clear("post", c):
                    obs += 1
                    if c in self.post_water and c not in self.pre_water and c not in self.ties:
                        fl += 1
            flood[name] = (obs * unit, fl * unit)
        audit = {}
        for d in ("pre", "post"):
            for tid, i0, j0, w, h in self.tiles[d]:
                s = self.shift.get(tid, (0, 0)) if d == "post" else (0, 0)
                src = [(i + s[0], j + s[1]) for j in range(j0, j0 + h) for i in range(i0, i0 + w)]
                valid = [c for c in src if c not in self.fill[d]]
                cl = sum(1 for c in valid if c in self.cloud[d])
                audit[(d, tid)] = (Fraction(cl, len(valid)), 4 * cl > len(valid), tid in self.shift and d == "post")
        return {"flood": flood, "audit": audit, "px": self.px}


def build(rng, kind):
    """One scene's files and its planned answers; a plan that cannot host its planted features is redrawn."""
    for _ in range(20):
        try:
            p = Plan(rng, kind)
        except ValueError:
            continue
        return p.files(), p.answers()
    raise ValueError("no plan for kind %s" % kind)
