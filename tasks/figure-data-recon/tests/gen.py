"""Seeded charts rendered from their plan.

A figure is planned in pixel space before anything is drawn: the axes (tick values placed on whole
pixels, linear or logarithmic, the y axis possibly inverted), the legend box and the band the data
keeps clear of it, and then the data itself -- a smooth pixel-space curve per line series, whole-
pixel marker centres per scatter series, whole-pixel bar tops per bar. Data values are the inverse
axis map of those pixel positions, so every answer is known exactly from the plan, and the grader
judges a reported value by mapping it back to pixels with the planted axis. Nothing here measures a
rendered image.
"""
import json
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PALETTE = [(214, 39, 40), (31, 119, 180), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207)]
GRID = (221, 221, 221)
NAMES = ["alpha", "beta", "gamma", "delta", "sigma", "omega", "base", "ours", "ridge", "lasso", "kappa",
         "tuned", "naive", "mixed", "sparse", "dense", "warm", "cold", "fast", "slow", "v2", "run7", "adam", "sgd"]


def load_font():
    glyphs, lines, i = {}, open(os.path.join(HERE, "font5x7.txt")).read().split("\n"), 0
    while i < len(lines):
        if lines[i].startswith("= "):
            glyphs[lines[i][2]] = [[c == "#" for c in row] for row in lines[i + 1:i + 8]]
            i += 8
        else:
            i += 1
    return glyphs


FONT = load_font()


# --- PNG (8-bit RGB, one tEXt chunk) -------------------------------------------------------------
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def encode(canvas, meta, rng):
    h, w = len(canvas), len(canvas[0]) // 3
    raw, prev = bytearray(), bytes(w * 3)
    for row in canvas:
        cur = bytes(row)
        f = rng.choice((0, 1, 2))
        if f == 0:
            line = cur
        elif f == 1:
            line = bytes((cur[i] - (cur[i - 3] if i >= 3 else 0)) & 255 for i in range(len(cur)))
        else:
            line = bytes((cur[i] - prev[i]) & 255 for i in range(len(cur)))
        raw.append(f)
        raw += line
        prev = cur
    comp = zlib.compress(bytes(raw), 6)
    cut = rng.randint(1, max(1, len(comp) - 1))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    out += chunk(b"tEXt", b"figdig\x00" + json.dumps(meta, sort_keys=True).encode())
    out += chunk(b"IDAT", comp[:cut]) + chunk(b"IDAT", comp[cut:]) + chunk(b"IEND", b"")
    return out


# --- axes ------------------------------------------------------------------------------------
class Axis:
    """Ticks on whole pixels: value v sits at pixel p0 + (g(v) - g0) / gstep * dp, g = v or log10 v."""

    def __init__(self, log, p0, dp, g0, gstep, ticks, labels):
        self.log, self.p0, self.dp, self.g0, self.gstep = log, p0, dp, g0, gstep
        self.ticks, self.labels = ticks, labels  # tick pixels and their label strings

    def g(self, v):
        return math.log10(v) if self.log else v

    def pix(self, v):
        if self.log and not v > 0:
            return float("nan")
        return self.p0 + (self.g(v) - self.g0) / self.gstep * self.dp

    def val(self, p):
        g = self.g0 + (p - self.p0) / self.dp * self.gstep
        return 10 ** g if self.log else g


def fmt_lin(v, dec):
    s = "%.*f" % (dec, v)
    return "0" if float(s) == 0 and dec == 0 else (s[1:] if s.startswith("-") and float(s) == 0 else s)


def fmt_log(e):
    if 0 <= e <= 4:
        return str(10 ** e)
    if -3 <= e < 0:
        return "0." + "0" * (-e - 1) + "1"
    return "1e%d" % e


def plan_axis(rng, lo, hi, log, invert=False, zero_at=None):
    """An axis whose ticks fill the pixel interval [lo, hi] (lo < hi); invert: values grow with pixels."""
    span = hi - lo
    if log:
        dp = rng.randint(80, 110) if span >= 200 else rng.randint(70, 90)
        if span // dp < 2:
            dp = span // 2
        n = span // dp
        e0 = rng.randint(-4, 3)
        first = lo + rng.randint(0, span - n * dp)
        exps = list(range(e0, e0 + n + 1))
        pix = [first + i * dp for i in range(n + 1)]
        labels = [fmt_log(e) for e in exps]
        gstep, g0 = 1.0, float(e0)
    else:
        k = rng.randint(-2, 2)
        step = rng.choice((1, 2, 5)) * 10.0 ** k
        dec = max(0, -k)
        n = rng.randint(4, 7)
        dp = span // n
        n = span // dp
        first = hi - n * dp if zero_at == "lo" else lo + rng.randint(0, span - n * dp)
        start = 0 if zero_at else rng.randint(-3, 6)
        pix = [first + i * dp for i in range(n + 1)]
        vals = [(start + i) * step for i in range(n + 1)]
        labels = [fmt_lin(v, dec) for v in vals]
        gstep, g0 = step, start * step
    if not invert:  # values grow against the pixel direction (the usual y axis)
        pass
    return dict(pix=pix, labels=labels, dp=dp, gstep=gstep, g0=g0, log=log)


def make_axis(d, grow_with_pixels):
    if grow_with_pixels:
        return Axis(d["log"], d["pix"][0], d["dp"], d["g0"], d["gstep"], d["pix"], d["labels"])
    # the first label belongs at the largest pixel
    pix = [d["pix"][-1] - (p - d["pix"][0]) for p in d["pix"]]
    return Axis(d["log"], pix[0], -d["dp"], d["g0"], d["gstep"], pix, d["labels"])


# --- drawing ---------------------------------------------------------------------------------
class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.rows = [bytearray(b"\xff" * (3 * w)) for _ in range(h)]

    def put(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.rows[y][3 * x:3 * x + 3] = bytes(c)

    def rect(self, x0, y0, x1, y1, c):
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.put(x, y, c)

    def text(self, x0, y0, s, scale):
        for i, ch in enumerate(s):
            gl = FONT[ch]
            for r in range(7):
                for c in range(5):
                    if gl[r][c]:
                        self.rect(x0 + 6 * scale * i + c * scale, y0 + r * scale,
                                  x0 + 6 * scale * i + c * scale + scale - 1, y0 + r * scale + scale - 1, (0, 0, 0))


def text_width(s, scale):
    return len(s) * 6 * scale - scale


def jitter(rng, c, j):
    return tuple(max(0, min(255, v + rng.randint(-j, j))) for v in c) if j else c


class Figure:
    """One planned chart; `truth` holds everything the grader needs."""

    def __init__(self, rng, kind, opts):
        self.rng, self.kind, self.o = rng, kind, opts
        s = self.s = opts.get("scale", 1)
        self.W, self.H = (400, 300) if s == 2 else (rng.choice((340, 360, 380)), rng.choice((240, 260, 280)))
        self.nser = rng.randint(*opts.get("series", (2, 3)))
        self.names = rng.sample(NAMES, self.nser)
        cols = rng.sample(PALETTE, self.nser)
        self.colors = cols
        self.jit = opts.get("jitter", 0)
        self.T = 8
        self.B = self.H - (4 + 3 + 7 * s + 6)
        ylog = opts.get("ylog", False) and kind != "bar"
        inv = opts.get("invert", False) and kind != "bar"
        # y axis first (its labels fix the left margin)
        yd = plan_axis(rng, self.T, self.B, ylog, zero_at="lo" if kind == "bar" else None)
        self.yaxis = make_axis(yd, inv)
        lw = max(text_width(t, s) for t in yd["labels"])
        self.L = lw + 4 + 3 + 6
        self.R = self.W - 8
        if kind == "bar":
            self.xaxis = None
        else:
            for _attempt in range(100):
                xd = plan_axis(rng, self.L + 4, self.R - 4, opts.get("xlog", False) and kind == "line")
                wmax = max(text_width(t, s) for t in xd["labels"])
                last = xd["pix"][-1] + text_width(xd["labels"][-1], s) // 2
                if xd["dp"] >= wmax + 4 * s and last <= self.W - 2:
                    break
            else:
                raise RuntimeError("no x axis fits")
            self.xaxis = make_axis(xd, True)
        self.plan_legend()

    def plan_legend(self):
        s, rng = self.s, self.rng
        self.mk = 5 if s == 1 else 7
        ew = 12 if self.kind == "line" else (self.mk if self.kind == "scatter" else 8)
        self.sw = ew
        bw = 4 + ew + 4 + max(text_width(n, s) for n in self.names) + 4
        eh = 7 * s + 4
        bh = 3 + self.nser * eh + 1
        top = self.o.get("legend_top", rng.random() < 0.7) or self.kind == "bar"
        left = rng.random() < 0.5
        x0 = self.L + 6 if left else self.R - 6 - bw
        y0 = self.T + 6 if top else self.B - 6 - bh
        self.legend = (x0, y0, x0 + bw, y0 + bh)
        self.top = top
        # the band the data keeps to (pixel rows)
        self.band = (y0 + bh + 5, self.B - 5) if top else (self.T + 5, y0 - 5)

    def draw_frame(self, cv):
        s = self.s
        L, R, T, B = self.L, self.R, self.T, self.B
        if self.o.get("grid"):
            for p in self.yaxis.ticks:
                if T < p < B:
                    for x in range(L + 1, R):
                        cv.put(x, p, GRID)
            if self.xaxis:
                for p in self.xaxis.ticks:
                    if L < p < R:
                        for y in range(T + 1, B):
                            cv.put(p, y, GRID)
        for x in range(L, R + 1):
            cv.put(x, T, (0, 0, 0))
            cv.put(x, B, (0, 0, 0))
        for y in range(T, B + 1):
            cv.put(L, y, (0, 0, 0))
            cv.put(R, y, (0, 0, 0))
        for p, lab in zip(self.yaxis.ticks, self.yaxis.labels):
            for x in range(L - 4, L):
                cv.put(x, p, (0, 0, 0))
            cv.text(L - 8 - text_width(lab, s) + 1, p - 3 * s, lab, s)
        if self.xaxis:
            for p, lab in zip(self.xaxis.ticks, self.xaxis.labels):
                for y in range(B + 1, B + 5):
                    cv.put(p, y, (0, 0, 0))
                cv.text(p - (text_width(lab, s) - 1) // 2, B + 8, lab, s)

    def draw_legend(self, cv):
        x0, y0, x1, y1 = self.legend
        cv.rect(x0, y0, x1, y1, (255, 255, 255))
        for x in range(x0, x1 + 1):
            cv.put(x, y0, (0, 0, 0))
            cv.put(x, y1, (0, 0, 0))
        for y in range(y0, y1 + 1):
            cv.put(x0, y, (0, 0, 0))
            cv.put(x1, y, (0, 0, 0))
        s, eh = self.s, 7 * self.s + 4
        for i, (name, col) in enumerate(zip(self.names, self.colors)):
            ty = y0 + 3 + i * eh
            cy = ty + (7 * s) // 2
            sx = x0 + 4
            if self.kind == "line":
                for x in range(sx, sx + 12):
                    cv.put(x, cy, jitter(self.rng, col, self.jit))
            elif self.kind == "scatter":
                h = self.mk // 2
                for y in range(cy - h, cy + h + 1):
                    for x in range(sx, sx + self.mk):
                        cv.put(x, y, jitter(self.rng, col, self.jit))
            else:
                for y in range(ty, ty + 7 * s):
                    for x in range(sx, sx + 8):
                        cv.put(x, y, jitter(self.rng, col, self.jit))
            cv.text(sx + self.sw + 4, ty, name, s)

    def render(self):
        cv = Canvas(self.W, self.H)
        self.draw_frame(cv)
        getattr(self, "draw_" + self.kind)(cv)
        self.draw_frame_edges(cv)
        self.draw_legend(cv)
        return encode(cv.rows, self.meta, self.rng)

    def draw_frame_edges(self, cv):
        for x in range(self.L, self.R + 1):
            cv.put(x, self.T, (0, 0, 0))
            cv.put(x, self.B, (0, 0, 0))
        for y in range(self.T, self.B + 1):
            cv.put(self.L, y, (0, 0, 0))
            cv.put(self.R, y, (0, 0, 0))

    # --- line ---------------------------------------------------------------------------
    def plan_line(self):
        rng, o = self.rng, self.o
        lo, hi = self.band
        c0, c1 = self.L + 3, self.R - 3
        for _plan in range(50):
            self.curves = []
            for i in range(self.nser):
                for _attempt in range(200):
                    mid = rng.uniform(lo + 12, hi - 12)
                    per = rng.uniform(120, 300)
                    ph = rng.uniform(0, 2 * math.pi)
                    tilt = rng.uniform(-0.15, 0.15)
                    amp = rng.uniform(4, max(5, min((hi - lo) / 2 - 6, (1.25 - abs(tilt)) * per / (2 * math.pi))))
                    cx = (c0 + c1) / 2

                    def f(u, mid=mid, amp=amp, per=per, ph=ph, tilt=tilt, cx=cx):
                        return mid + amp * math.sin(2 * math.pi * u / per + ph) + tilt * (u - cx)

                    vals = [f(u) for u in range(c0 - 1, c1 + 2)]
                    slope = max(abs(f(u + 0.5) - f(u - 0.5)) for u in range(c0, c1 + 1))
                    if min(vals) > lo and max(vals) < hi and slope <= 1.3:
                        self.curves.append(f)
                        break
                else:
                    raise RuntimeError("no curve fits the band")
            # query xs: data values at fractional pixel positions, rounded to 4 significant digits
            n = rng.randint(8, 14)
            xs, us = [], []
            def apart(u):  # query columns keep every pair of curves at least 5 px apart
                return all(abs(f(c) - h(c)) >= 5 for c in range(u - 2, u + 3)
                           for i, f in enumerate(self.curves) for h in self.curves[i + 1:])

            free = [u for u in range(c0 + 3, c1 - 3) if apart(u)]
            if len(free) >= 40:
                break
        else:
            raise RuntimeError("curves overlap almost everywhere")
        for u in sorted(rng.sample(free, n)):
            x = float("%.4g" % self.xaxis.val(u + rng.uniform(-0.4, 0.4)))
            if self.xaxis.log:
                x = float("%.4g" % x)
            if xs and x <= xs[-1]:
                continue
            xs.append(x)
            us.append(self.xaxis.pix(x))
        self.qx, self.qu = xs, us
        self.meta = {"kind": "line", "query_x": xs}
        self.truth = dict(kind="line", names=self.names, qx=xs,
                          rows={nm: [f(u) for u in us] for nm, f in zip(self.names, self.curves)})

    def draw_line(self, cv):
        c0, c1 = self.L + 3, self.R - 3
        for f, col in zip(self.curves, self.colors):
            for c in range(c0, c1 + 1):
                a, b = int(round(f(c - 0.5))), int(round(f(c + 0.5)))
                for y in range(min(a, b), max(a, b) + 1):
                    cv.put(c, y, jitter(self.rng, col, self.jit))

    # --- scatter ------------------------------------------------------------------------
    def plan_scatter(self):
        rng, m = self.rng, self.mk
        lo, hi = self.band
        h = m // 2
        pts, per = [], {}
        x0, y0, x1, y1 = self.legend
        for nm in self.names:
            n = rng.randint(*self.o.get("points", (5, 10)))
            per[nm] = []
            tries = 0
            while len(per[nm]) < n and tries < 2000:
                tries += 1
                u, v = rng.randint(self.L + h + 3, self.R - h - 3), rng.randint(lo + h, hi - h)
                if any(max(abs(u - a), abs(v - b)) < m + 2 for a, b in pts):
                    continue
                pts.append((u, v))
                per[nm].append((u, v))
        self.points = per
        self.meta = {"kind": "scatter"}
        self.truth = dict(kind="scatter", names=self.names, points={nm: sorted(p) for nm, p in per.items()})

    def draw_scatter(self, cv):
        h = self.mk // 2
        for nm, col in zip(self.names, self.colors):
            for u, v in self.points[nm]:
                for y in range(v - h, v + h + 1):
                    for x in range(u - h, u + h + 1):
                        cv.put(x, y, jitter(self.rng, col, self.jit))

    # --- bar ----------------------------------------------------------------------------
    def plan_bar(self):
        rng = self.rng
        k = rng.randint(3, 6)
        inner = self.R - self.L - 12
        gw = inner // k
        bw = max(5, min(14, (gw - 8) // self.nser))
        lo, hi = self.band
        self.cats = k
        self.bars = {}
        for j, nm in enumerate(self.names):
            self.bars[nm] = []
            for c in range(k):
                left = self.L + 6 + c * gw + (gw - self.nser * bw) // 2 + j * bw
                top = rng.randint(lo, hi - 4)
                self.bars[nm].append((left, top))
        self.gw = gw
        self.meta = {"kind": "bar", "categories": k}
        self.bw = bw
        self.truth = dict(kind="bar", names=self.names, tops={nm: [t for _, t in b] for nm, b in self.bars.items()})

    def draw_bar(self, cv):
        for nm, col in zip(self.names, self.colors):
            for left, top in self.bars[nm]:
                for y in range(top, self.B):
                    for x in range(left, left + self.bw):
                        cv.put(x, y, jitter(self.rng, col, self.jit))
        for c in range(self.cats):
            lab = str(c + 1)
            cx = self.L + 6 + c * self.gw + self.gw // 2
            cv.text(cx - (text_width(lab, self.s) - 1) // 2, self.B + 8, lab, self.s)

    def plan(self):
        getattr(self, "plan_" + self.kind)()
        ax = lambda a: None if a is None else dict(log=a.log, p0=a.p0, dp=a.dp, g0=a.g0, gstep=a.gstep)
        self.truth["yaxis"] = ax(self.yaxis)
        self.truth["xaxis"] = ax(self.xaxis)
        return self


def axis_from(d):
    return None if d is None else Axis(d["log"], d["p0"], d["dp"], d["g0"], d["gstep"], [], [])


KINDS = {
    # options per hidden family: which perturbations the figures carry
    "line": [dict(), dict(grid=True, jitter=10), dict(invert=True, grid=True), dict(ylog=True),
             dict(xlog=True, jitter=10, scale=2), dict(invert=True, ylog=True, scale=2, grid=True)],
    "scatter": [dict(jitter=10), dict(invert=True, grid=True), dict(ylog=True, scale=2), dict(grid=True, jitter=10)],
    "bar": [dict(), dict(grid=True, jitter=10, scale=2), dict(series=(1, 1)), dict(series=(3, 3), grid=True)],
}


def build_figure(rng, kind, opts):
    return Figure(rng, kind, dict(opts)).plan()


# --- papers: requests and claims --------------------------------------------------------------
def px_interval(axis, p, tol):
    a, b = axis.val(p - tol), axis.val(p + tol)
    return (min(a, b), max(a, b))


def line_values(fig):
    ya = fig.yaxis
    return {nm: [ya.val(p) for p in rows] for nm, rows in fig.truth["rows"].items()}


def crossing(xs, a, b):
    """Walks the segments of the two polylines; the first touch or sign change, by similar triangles."""
    prev = None
    for x, p, q in zip(xs, a, b):
        gap = p - q
        if gap == 0:
            return x
        if prev is not None and (prev[1] < 0) != (gap < 0):
            x0, g0 = prev
            share = abs(g0) / (abs(g0) + abs(gap))
            return x0 + share * (x - x0)
        prev = (x, gap)
    return None


def request_truth(fig, req):
    """(expected, lo, hi) for a request on a figure: the answer and the interval judged right."""
    op, ya = req["op"], fig.yaxis
    t = fig.truth
    if op == "value":
        i = t["qx"].index(req["x"])
        p = t["rows"][req["series"]][i]
        lo, hi = px_interval(ya, p, 1.0)
        return ya.val(p), lo, hi
    if op == "mean":
        idx = [i for i, x in enumerate(t["qx"]) if req["from"] <= x <= req["to"]]
        rows = t["rows"][req["series"]]
        vals = [ya.val(rows[i]) for i in idx]
        ivs = [px_interval(ya, rows[i], 1.0) for i in idx]
        return sum(vals) / len(vals), sum(a for a, _ in ivs) / len(ivs), sum(b for _, b in ivs) / len(ivs)
    if op == "crossing":
        xs = t["qx"]
        a = [ya.val(p) for p in t["rows"][req["a"]]]
        b = [ya.val(p) for p in t["rows"][req["b"]]]
        c = crossing(xs, a, b)
        if c is None:
            return None, None, None
        ia = [px_interval(ya, p, 1.0) for p in t["rows"][req["a"]]]
        ib = [px_interval(ya, p, 1.0) for p in t["rows"][req["b"]]]
        d = [x - y for x, y in zip(a, b)]
        i = next(j for j in range(len(d)) if d[j] == 0 or d[j] * d[j + 1] < 0)
        cands = []
        for ea in (0, 1):
            for eb in (0, 1):
                for fa in (0, 1):
                    for fb in (0, 1):
                        d0 = ia[i][ea] - ib[i][eb]
                        d1 = ia[i + 1][fa] - ib[i + 1][fb]
                        cands.append(xs[i] + (xs[i + 1] - xs[i]) * d0 / (d0 - d1) if d0 != d1 else xs[i])
        return c, min(cands), max(cands)
    if op == "count":
        ys = [ya.val(v) for _, v in t["points"][req["series"]]]
        n = sum(1 for y in ys if req["y_min"] <= y <= req["y_max"])
        return n, n, n
    if op == "bar":
        top = t["tops"][req["series"]][req["category"] - 1]
        lo, hi = px_interval(ya, top, 0.5)
        return ya.val(top), lo, hi
    if op == "bar_sum":
        tops = t["tops"][req["series"]]
        ivs = [px_interval(ya, p, 0.5) for p in tops]
        return sum(ya.val(p) for p in tops), sum(a for a, _ in ivs), sum(b for _, b in ivs)
    raise ValueError(op)


def safe_count(fig, nm, lo, hi):
    """True when no point of the series lies within 2 px of the count bounds."""
    ya = fig.yaxis
    pb = sorted((ya.pix(lo), ya.pix(hi)))
    return all(abs(v - pb[0]) > 2 and abs(v - pb[1]) > 2 for _, v in fig.truth["points"][nm])


def nice(v):
    return float("%.3g" % v)


def candidate_requests(rng, fig, fname):
    t, out = fig.truth, []
    if fig.kind == "line":
        xs = t["qx"]
        for nm in t["names"]:
            out.append(dict(op="value", figure=fname, series=nm, x=rng.choice(xs)))
            i = rng.randint(0, len(xs) - 4)
            j = rng.randint(i + 2, len(xs) - 1)
            out.append(dict(op="mean", figure=fname, series=nm, **{"from": xs[i], "to": xs[j]}))
        names = t["names"]
        for a in range(len(names)):
            for b in range(a + 1, len(names)):
                out.append(dict(op="crossing", figure=fname, a=names[a], b=names[b]))
    elif fig.kind == "scatter":
        ya = fig.yaxis
        for nm in t["names"]:
            for _ in range(6):
                p1, p2 = sorted(rng.sample(range(fig.band[0], fig.band[1]), 2))
                lo, hi = sorted((nice(ya.val(p1)), nice(ya.val(p2))))
                if lo < hi and safe_count(fig, nm, lo, hi):
                    out.append(dict(op="count", figure=fname, series=nm, y_min=lo, y_max=hi))
                    break
    else:
        for nm in t["names"]:
            out.append(dict(op="bar", figure=fname, series=nm, category=rng.randint(1, t.get("cats", 3))))
            out.append(dict(op="bar_sum", figure=fname, series=nm))
    return out


def crossing_ok(fig, req):
    """A crossing request is fair when the sign of every difference is unambiguous by 3 px."""
    t, ya = fig.truth, fig.yaxis
    pa, pb = t["rows"][req["a"]], t["rows"][req["b"]]
    return all(abs(p - q) > 3 for p, q in zip(pa, pb))


def build_paper(rng, opts):
    """A paper: figures, requests (stage 2) and claims (stage 3) with their answers."""
    figs, files = {}, {}
    kinds = opts["figures"]
    for i, (kind, fo) in enumerate(kinds):
        fname = "fig%d.png" % (i + 1)
        fig = build_figure(rng, kind, fo)
        if kind == "bar":
            fig.truth["cats"] = fig.cats
        figs[fname] = fig
        files[fname] = fig.render()
    reqs = []
    for fname, fig in figs.items():
        for r in candidate_requests(rng, fig, fname):
            if r["op"] == "crossing" and not crossing_ok(fig, r):
                continue
            reqs.append(r)
    rng.shuffle(reqs)
    reqs = reqs[:opts.get("requests", 12)]
    answers = {}
    for i, r in enumerate(reqs):
        r["id"] = "r%02d" % (i + 1)
        answers[r["id"]] = request_truth(figs[r["figure"]], r)
    claims, verdicts = build_claims(rng, figs, opts.get("claims", 12))
    files["requests.json"] = json.dumps(reqs, indent=1).encode()
    files["claims.json"] = json.dumps(claims, indent=1).encode()
    return files, dict(requests=answers, claims=verdicts, figs={k: f.truth for k, f in figs.items()})


APPLIES = {"value": "line", "mean": "line", "crossing": "line", "count": "scatter", "bar": "bar", "bar_sum": "bar"}


def claim_fair(fig, r, exp, lo, hi):
    """A continuous claim can be judged when the 1-px (bar: 0.5-px) interval is within 3% of the value."""
    if r["op"] == "count":
        return True
    if exp is None:
        return True
    return exp != 0 and max(abs(lo - exp), abs(hi - exp)) <= 0.03 * abs(exp)


def build_claims(rng, figs, n):
    claims, verdicts = [], {}
    pool = []
    for fname, fig in figs.items():
        for r in candidate_requests(rng, fig, fname):
            if r["op"] == "crossing" and not crossing_ok(fig, r):
                continue
            exp, lo, hi = request_truth(fig, r)
            if claim_fair(fig, r, exp, lo, hi):
                pool.append((fig, r, exp))
    rng.shuffle(pool)
    line_figs = [f for f, fg in figs.items() if fg.kind == "line"]
    other = [f for f, fg in figs.items() if fg.kind != "line"]
    plan = ["ok", "mismatch", "ok", "mismatch", "unknown_series", "kind_mismatch", "no_crossing", "ok"]
    k = 0
    for _ in range(n):
        want = plan[k % len(plan)] if k < len(plan) else rng.choice(plan)
        k += 1
        if want in ("ok", "mismatch") and pool:
            fig, r, exp = pool.pop()
            c = dict(r)
            if r["op"] == "count":
                c["claimed"] = exp if want == "ok" else exp + rng.choice((-2, -1, 1, 2)) if exp > 2 else exp + rng.randint(1, 2)
            elif exp is None:
                if want == "ok":
                    c["claimed"] = None
                else:
                    continue
            else:
                f = rng.uniform(-0.01, 0.01) if want == "ok" else rng.choice((-1, 1)) * rng.uniform(0.12, 0.3)
                c["claimed"] = float("%.4g" % (exp * (1 + f)))
            claims.append(c)
            verdicts[len(claims)] = want
        elif want == "unknown_series":
            fname = rng.choice(sorted(figs))
            fig = figs[fname]
            rs = candidate_requests(rng, fig, fname)
            if not rs:
                continue
            c = dict(rng.choice(rs))
            other_names = [x for x in NAMES if x not in fig.truth["names"]]
            key = "a" if c["op"] == "crossing" else "series"
            c[key] = rng.choice(other_names)
            c["claimed"] = 1.0
            claims.append(c)
            verdicts[len(claims)] = want
        elif want == "kind_mismatch" and (line_figs and other):
            fname = rng.choice(other)
            fig = figs[fname]
            op = rng.choice([o for o, kd in APPLIES.items() if kd != fig.kind and o != "crossing"])
            c = dict(op=op, figure=fname, series=rng.choice(fig.truth["names"]))
            if op == "value":
                c["x"] = 1.0
            elif op == "mean":
                c["from"], c["to"] = 0.0, 1.0
            elif op == "count":
                c["y_min"], c["y_max"] = 0.0, 1.0
            elif op == "bar":
                c["category"] = 1
            c["claimed"] = 2.0
            claims.append(c)
            verdicts[len(claims)] = want
        elif want == "no_crossing" and line_figs:
            fname = rng.choice(line_figs)
            fig = figs[fname]
            nm = fig.truth["names"]
            pairs = [(a, b) for a in nm for b in nm if a != b
                     and crossing_ok(fig, dict(a=a, b=b))
                     and request_truth(fig, dict(op="crossing", a=a, b=b))[0] is None]
            if not pairs:
                continue
            a, b = rng.choice(pairs)
            xs = fig.truth["qx"]
            claims.append(dict(op="crossing", figure=fname, a=a, b=b, claimed=xs[len(xs) // 2]))
            verdicts[len(claims)] = want
    out = {}
    for i, c in enumerate(claims):
        c["id"] = "c%02d" % (i + 1)
        out[c["id"]] = verdicts[i + 1]
    return claims, out


PAPERS = {
    "table": [dict(figures=[("line", dict(grid=True)), ("line", dict(invert=True, jitter=10)),
                            ("scatter", dict(ylog=True)), ("bar", dict(jitter=10))], requests=14, claims=0),
              dict(figures=[("line", dict(ylog=True, scale=2)), ("line", dict(series=(3, 3))),
                            ("scatter", dict(grid=True)), ("bar", dict(scale=2))], requests=14, claims=0)],
    "audit": [dict(figures=[("line", dict(grid=True, series=(3, 3))), ("line", dict(invert=True)),
                            ("scatter", dict(jitter=10)), ("bar", dict(grid=True))], requests=0, claims=14),
              dict(figures=[("line", dict(ylog=True, jitter=10)), ("line", dict(xlog=True, scale=2)),
                            ("scatter", dict(invert=True)), ("bar", dict())], requests=0, claims=14)],
}
