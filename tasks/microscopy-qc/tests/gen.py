"""Seeded time-lapse sessions built from their plan.

A session is planned before any pixel is drawn: the camera (bit depth, dark level and amplifier
glow, vignetting), per field a specimen larger than the frame (textured background, cells with the
frame they appear in, debris specks), the stage position of every frame, and the defects planted
in chosen frames (defocus blur, over-exposure, uneven illumination, near-full-scale pixels). Only
then are the raw frames, the dark and the flat frame rendered and written as PGM files, and the
facility's previous QC report is written from the plan with planted mistakes.

The answers come from the plan: the QC reasons are the planted defects (the planted strength clears
every SOP threshold by a wide margin, and untouched frames stay far from them), the drift is the
planted stage motion, the cell counts are the planted cells placed clear of the common field of
view's edges, the background is the plan's noise-free signal scaled by the mean gain, the
saturated fraction is counted on the rendered raw samples, and the audit rows are the planted
report mistakes. No other answer is measured on a rendered image; one more measurement is a guard:
a field whose frames do not clear the focus rule by a wide margin (a frame seen before most of its
cells appear can be far less textured than its field's median) is planned again.
"""
import json
import math

KNOBS = {
    # depth: bit depths drawn; fields/frames: counts; size: (W, H) choices; fmt: PGM flavours;
    # defects: planted per field as a list of kinds (None: a clean frame); step: max stage step;
    # first_bad: the first frame may be defective; appear: share of cells appearing later;
    # report: planted mistakes in the previous report.
    "ex1": dict(depth=[8], fields=1, frames=(6, 6), size=[(64, 64)], fmt=["p5"], comments=False,
                defects=[["blur"]], step=2, first_bad=False, appear=0.1, debris=(1, 2), report=2),
    "ex2": dict(depth=[12], fields=2, frames=(5, 6), size=[(80, 80)], fmt=["p5"], comments=True,
                defects=[["sat", "exact"], ["shade", "decoy"]], step=2, first_bad=False, appear=0.2, debris=(1, 3),
                report=3),
    "correction": dict(depth=[8, 12], fields=2, frames=(5, 6), size=[(64, 64), (80, 64), (64, 80)],
                       fmt=["p5", "p2"], comments=True, defects=[["sat"], ["decoy"]], step=2, first_bad=False,
                       appear=0.1, debris=(1, 2), report=2),
    "defects": dict(depth=[8, 12], fields=2, frames=(6, 7), size=[(80, 80)], fmt=["p5"], comments=True,
                    defects=[["blur", "sat", "exact"], ["shade", "decoy", "blur"]], step=2, first_bad=False,
                    appear=0.1, debris=(1, 2), report=2),
    "drift": dict(depth=[8, 12], fields=2, frames=(6, 7), size=[(80, 80), (60, 80)], fmt=["p5"], comments=True,
                  defects=[["blur", "sat"], ["shade", "exact"]], step=3, first_bad=True, appear=0.1, debris=(1, 2),
                  report=2),
    "cells": dict(depth=[8, 12], fields=2, frames=(5, 6), size=[(80, 64), (64, 80)], fmt=["p5", "p2"],
                  comments=True, defects=[["blur"], ["sat"]], step=3, first_bad=False, appear=0.35,
                  debris=(3, 5), report=2),
    "audit": dict(depth=[8, 12], fields=2, frames=(5, 6), size=[(80, 60)], fmt=["p5"], comments=True,
                  defects=[["blur", "shade"], ["sat", "exact"]], step=2, first_bad=False, appear=0.2, debris=(1, 2),
                  report=5),
}
CODES = ("BLURRED", "SATURATED", "SHADED")
M = 22  # specimen margin around the first stage position
FIELD_NAMES = ["A1", "A2", "B1", "B3", "C2", "D4", "E1", "F2"]


def clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


class Session:
    def __init__(self, rng, kind):
        self.rng, self.kind, self.k = rng, kind, KNOBS[kind]
        k = self.k
        self.depth = rng.choice(k["depth"])
        self.maxval = 255 if self.depth == 8 else 4095
        self.scale = self.maxval / 255.0
        self.W, self.H = rng.choice(k["size"])
        self.plan_camera()
        names = sorted(rng.sample(FIELD_NAMES, k["fields"]))
        self.fields = [self.plan_field(name, k["defects"][i % len(k["defects"])]) for i, name in enumerate(names)]

    # --- camera ----------------------------------------------------------------------------
    def plan_camera(self):
        rng, W, H, s = self.rng, self.W, self.H, self.scale
        d0 = rng.uniform(22, 30)
        glow = rng.uniform(22, 34)
        gx, gy = rng.choice([(0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1)])
        gs = rng.uniform(0.35, 0.5) * W
        vx, vy = rng.uniform(0.4, 0.6) * W, rng.uniform(0.4, 0.6) * H
        vig = rng.uniform(0.45, 0.58)
        rmax = math.hypot(W, H) / 2
        self.dark = [[s * (d0 + glow * math.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * gs * gs))) for x in range(W)]
                     for y in range(H)]
        self.gain = [[1.0 - vig * min(1.0, (math.hypot(x - vx, y - vy) / rmax) ** 2) for x in range(W)] for y in range(H)]
        self.gbar = sum(map(sum, self.gain)) / (W * H)
        self.F = s * rng.uniform(170, 185)
        self.dark_file = [[clamp(int(round(self.dark[y][x] + rng.uniform(-0.4, 0.4) * s)), 0, self.maxval)
                           for x in range(W)] for y in range(H)]
        self.flat_file = [[clamp(int(round(self.dark[y][x] + self.gain[y][x] * self.F + rng.uniform(-0.5, 0.5) * s)),
                                 0, self.maxval - 2) for x in range(W)] for y in range(H)]

    # --- a field ---------------------------------------------------------------------------
    def plan_field(self, name, defect_list):
        rng, k = self.rng, self.k
        n = rng.randint(*k["frames"])
        # Defect frames: never two in a row, frame 0 only when allowed.
        at_zero = k["first_bad"] and rng.random() < 0.6
        while True:
            slots = rng.sample(range(0 if k["first_bad"] else 1, n), len(defect_list))
            s = sorted(slots)
            if all(b - a > 1 for a, b in zip(s, s[1:])) and (not at_zero or s[0] == 0):
                break
        defects = {t: d for t, d in zip(slots, defect_list)}
        bad = {t for t, d in defects.items() if d in ("blur", "sat", "shade")}
        # Stage positions: the stage creeps in one direction (content moves the other way), with
        # jitter; each step is at most k["step"] px per axis and stays within the margin.
        lead = rng.choice([-1, 1]) * (k["step"] - 1)
        trend = (lead, rng.randint(-1, 1)) if rng.random() < 0.5 else (rng.randint(-1, 1), lead)
        pos = [(M, M)]
        for t in range(1, n):
            while True:
                sx = clamp(trend[0] + rng.randint(-1, 1), -k["step"], k["step"])
                sy = clamp(trend[1] + rng.randint(-1, 1), -k["step"], k["step"])
                ox, oy = pos[-1][0] + sx, pos[-1][1] + sy
                if abs(ox - M) <= M - 2 and abs(oy - M) <= M - 2:
                    break
            pos.append((ox, oy))
        passing = [t for t in range(n) if t not in bad]
        ref = passing[0]
        drift = {t: (pos[ref][0] - pos[t][0], pos[ref][1] - pos[t][1]) for t in passing}
        # Common field of view in specimen coordinates (inclusive pixel bounds).
        lo_x = max(pos[t][0] for t in passing)
        hi_x = min(pos[t][0] for t in passing) + self.W - 1
        lo_y = max(pos[t][1] for t in passing)
        hi_y = min(pos[t][1] for t in passing) + self.H - 1
        SW, SH = self.W + 2 * M, self.H + 2 * M
        b = self.scale * rng.uniform(36, 48)
        ph = [rng.uniform(0, 6.3) for _ in range(4)]
        kk = [rng.uniform(0.25, 0.45), rng.uniform(0.2, 0.4), rng.uniform(0.12, 0.2)]
        bg = [[b * (1 + 0.05 * math.sin(x * kk[0] + ph[0]) * math.cos(y * kk[1] + ph[1])
                    + 0.03 * math.sin((x + y) * kk[2] + ph[2])) for x in range(SW)] for y in range(SH)]
        cells, blobs = [], []
        want_cells = int(SW * SH / 480)
        tries = 0
        while len(cells) < want_cells and tries < 4000:
            tries += 1
            r = rng.randint(3, 5)
            cx, cy = rng.randint(r, SW - 1 - r), rng.randint(r, SH - 1 - r)
            if any(math.hypot(cx - ox, cy - oy) < r + orr + 3 for ox, oy, orr in blobs):
                continue
            m = r + 2
            out = cx < lo_x - m or cx > hi_x + m or cy < lo_y - m or cy > hi_y + m
            inside = lo_x + m <= cx <= hi_x - m and lo_y + m <= cy <= hi_y - m
            if not (out or inside):
                continue
            appear = rng.randint(1, n - 1) if rng.random() < k["appear"] else 0
            cells.append(dict(x=cx, y=cy, r=r, f=rng.uniform(2.4, 3.0), appear=appear, inside=inside))
            blobs.append((cx, cy, r))
        debris = []
        for _ in range(rng.randint(*k["debris"]) * 3):
            cx, cy = rng.randint(lo_x + 2, hi_x - 3), rng.randint(lo_y + 2, hi_y - 3)
            if any(math.hypot(cx - ox, cy - oy) < orr + 5 for ox, oy, orr in blobs):
                continue
            debris.append((cx, cy))
            blobs.append((cx, cy, 2))
        counts = {t: sum(1 for c in cells if c["inside"] and c["appear"] <= t) for t in passing}
        field = dict(name=name, n=n, pos=pos, defects=defects, bad=bad, passing=passing, drift=drift, counts=counts,
                     cells=cells, debris=debris, bg=bg, b=b, exposure=2.3)
        field["frames"] = [self.render(field, t) for t in range(n)]
        self.check_focus(field)
        return field

    def check_focus(self, field):
        """Rejects a field whose frames do not clear the SOP's focus rule by a wide margin. A frame
        seen before most of its cells appear can be far less textured than the field's median
        without being blurred (SOP section 3 scores focus against that median), so the plan is
        drawn again rather than let an untouched frame fall near the BLURRED threshold."""
        W, H = self.W, self.H
        gain = [[self.flat_file[y][x] - self.dark_file[y][x] for x in range(W)] for y in range(H)]
        mean_gain = sum(map(sum, gain)) / (W * H)
        scores = []
        for fr in field["frames"]:
            img = [[(fr["raw"][y][x] - self.dark_file[y][x]) / gain[y][x] * mean_gain for x in range(W)]
                   for y in range(H)]
            vals = [img[y - 1][x] + img[y + 1][x] + img[y][x - 1] + img[y][x + 1] - 4 * img[y][x]
                    for y in range(1, H - 1) for x in range(1, W - 1)]
            m = sum(vals) / len(vals)
            scores.append(sum((v - m) ** 2 for v in vals) / len(vals))
        s = sorted(scores)
        n = len(s)
        med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
        for t, score in enumerate(scores):
            blurred = field["defects"].get(t) == "blur"
            if (blurred and score > 0.2 * med) or (not blurred and score < 0.5 * med):
                raise ValueError("frame %d's focus is %.2f of the median: too near the BLURRED threshold"
                                 % (t, score / med))

    # --- rendering -------------------------------------------------------------------------
    def signal(self, field, t):
        """Noise-free specimen signal seen by frame t (before gain), as rows."""
        W, H = self.W, self.H
        ox, oy = field["pos"][t]
        bg = field["bg"]
        S = [bg[oy + y][ox:ox + W] for y in range(H)]
        S = [list(r) for r in S]
        for c in field["cells"]:
            if c["appear"] > t:
                continue
            r = c["r"]
            for yy in range(c["y"] - r, c["y"] + r + 1):
                y = yy - oy
                if not 0 <= y < H:
                    continue
                for xx in range(c["x"] - r, c["x"] + r + 1):
                    x = xx - ox
                    if 0 <= x < W and (xx - c["x"]) ** 2 + (yy - c["y"]) ** 2 <= r * r:
                        S[y][x] = field["bg"][yy][xx] * c["f"]
        for (cx, cy) in field["debris"]:
            for yy in (cy, cy + 1):
                for xx in (cx, cx + 1):
                    x, y = xx - ox, yy - oy
                    if 0 <= x < W and 0 <= y < H:
                        S[y][x] = field["b"] * 2.6
        return S

    def box_blur(self, S, rad):
        W, H = self.W, self.H
        tmp = [[sum(row[clamp(x + d, 0, W - 1)] for d in range(-rad, rad + 1)) / (2 * rad + 1) for x in range(W)]
               for row in S]
        return [[sum(tmp[clamp(y + d, 0, H - 1)][x] for d in range(-rad, rad + 1)) / (2 * rad + 1) for x in range(W)]
                for y in range(H)]

    def render(self, field, t):
        rng, W, H, mv = self.rng, self.W, self.H, self.maxval
        d = field["defects"].get(t)
        S = self.signal(field, t)
        cellmask = [[S[y][x] > field["b"] * 1.9 for x in range(W)] for y in range(H)]
        if d == "blur":
            S = self.box_blur(self.box_blur(S, 1), 1)
        elif d == "sat":
            S = [[v * field["exposure"] for v in row] for row in S]
        elif d == "shade":
            direction = rng.choice("LRTB")
            lowest = rng.uniform(0.5, 0.56)

            def fac(x, y):
                u = {"L": x / (W - 1), "R": 1 - x / (W - 1), "T": y / (H - 1), "B": 1 - y / (H - 1)}[direction]
                return lowest + (1 - lowest) * u
            S = [[S[y][x] * fac(x, y) for x in range(W)] for y in range(H)]
        sd = 0.8 * self.scale
        raw = [[clamp(int(round(self.dark[y][x] + self.gain[y][x] * S[y][x] + rng.gauss(0, sd))), 0, mv)
                for x in range(W)] for y in range(H)]
        if d in ("decoy", "exact"):
            cellpix = [(x, y) for y in range(H) for x in range(W) if cellmask[y][x]]
            rng.shuffle(cellpix)
            N = W * H
            if d == "exact":
                top, near = N // 100, N * 6 // 1000
            else:
                top, near = N * rng.randint(3, 7) // 1000, N * rng.randint(14, 20) // 1000
            if len(cellpix) < top + near:
                raise ValueError("not enough cell pixels for a near-saturation frame")
            for i, (x, y) in enumerate(cellpix[:top + near]):
                raw[y][x] = mv if i < top else mv - 1
        clean = [[S[y][x] * self.gbar for x in range(W)] for y in range(H)]
        flat = sorted(v for row in clean for v in row)
        n = len(flat)
        background = (flat[n // 2 - 1] + flat[n // 2]) / 2 if n % 2 == 0 else flat[n // 2]
        sat = sum(1 for row in raw for v in row if v == mv)
        if d == "sat" and sat < 0.025 * W * H:
            # Over-exposed too little to clear the SOP limit with margin: expose longer.
            if field["exposure"] > 4:
                raise ValueError("over-exposure does not saturate enough pixels")
            field["exposure"] *= 1.25
            return self.render(field, t)
        return dict(raw=raw, background=background, sat=sat, npx=W * H)

    # --- files -----------------------------------------------------------------------------
    def pgm(self, rows, fmt):
        W, H, mv = self.W, self.H, self.maxval
        rng = self.rng
        hdr = ["P2" if fmt == "p2" else "P5"]
        if self.k["comments"]:
            hdr.append("# %s" % rng.choice(["acquired by ScopeCap 3.2", "exposure ms=%d" % rng.randint(20, 400),
                                             "stage z=%.2f" % rng.uniform(10, 90)]))
        hdr.append("%d %d" % (W, H))
        if self.k["comments"] and rng.random() < 0.5:
            hdr.append("# binning 1x1")
        hdr.append(str(mv))
        head = ("\n".join(hdr) + "\n").encode()
        if fmt == "p2":
            vals = [str(v) for row in rows for v in row]
            lines = [" ".join(vals[i:i + 16]) for i in range(0, len(vals), 16)]
            return head + ("\n".join(lines) + "\n").encode()
        if mv < 256:
            return head + bytes(v for row in rows for v in row)
        out = bytearray()
        for row in rows:
            for v in row:
                out += bytes((v >> 8, v & 255))
        return head + bytes(out)

    def files(self):
        rng = self.rng
        files = {}
        fmt = lambda: rng.choice(self.k["fmt"])  # noqa: E731
        files["calib/dark.pgm"] = self.pgm(self.dark_file, fmt())
        files["calib/flat.pgm"] = self.pgm(self.flat_file, fmt())
        meta_fields = []
        for f in self.fields:
            names = []
            for t, fr in enumerate(f["frames"]):
                p = "%s/%s_t%03d.pgm" % (f["name"], f["name"], t)
                files[p] = self.pgm(fr["raw"], fmt())
                names.append(p)
            meta_fields.append({"id": f["name"], "interval_s": rng.choice([60, 120, 300]), "frames": names})
        meta = {"session": "S%04d" % rng.randint(1, 9999), "instrument": "widefield-2",
                "camera": {"model": "ScopeCam %s" % ("8" if self.depth == 8 else "12"), "bit_depth": self.depth},
                "dark": "calib/dark.pgm", "flat": "calib/flat.pgm", "fields": meta_fields,
                "operator": rng.choice(["jk", "mw", "ls"])}
        files["session.json"] = (json.dumps(meta, indent=2) + "\n").encode()
        report, audit = self.report()
        files["previous_qc.csv"] = report
        return files, audit

    # --- answers ---------------------------------------------------------------------------
    def truth(self):
        qc, drift, cells = {}, {}, {}
        for f in self.fields:
            for t, fr in enumerate(f["frames"]):
                d = f["defects"].get(t)
                reasons = {"blur": ("BLURRED",), "sat": ("SATURATED",), "shade": ("SHADED",)}.get(d, ())
                qc[(f["name"], t)] = dict(reasons=reasons, sat=fr["sat"], npx=fr["npx"], background=fr["background"])
            for t in f["passing"]:
                drift[(f["name"], t)] = f["drift"][t]
                cells[(f["name"], t)] = f["counts"][t]
        return qc, drift, cells

    def report(self):
        """The previous QC report with planted mistakes, and the audit rows they cause."""
        rng = self.rng
        qc, _, cells = self.truth()
        rows = {}
        for key, q in qc.items():
            rows[key] = [set(q["reasons"]), cells.get(key)]
        keys = sorted(rows)
        mistakes = rng.sample(keys, min(len(keys), self.k["report"]))
        for key in mistakes:
            reasons, count = rows[key]
            if count is not None and rng.random() < 0.5:
                rows[key][1] = max(0, count + rng.choice([-2, -1, 1, 2, 3]))
            elif count is not None:
                rows[key][0] = {rng.choice(CODES)}
                rows[key][1] = None
            elif rng.random() < 0.5:
                rows[key][0] = set()
                rows[key][1] = rng.randint(3, 20)
            else:
                rows[key][0] = {c for c in CODES if c not in reasons and rng.random() < 0.6} or \
                    {next(c for c in CODES if c not in reasons)}
        audit = set()
        lines = ["field,frame,status,reasons,cells"]
        for key in keys:
            reasons, count = rows[key]
            lines.append("%s,%d,%s,%s,%s" % (key[0], key[1], "fail" if reasons else "pass", ";".join(sorted(reasons)),
                                             "" if count is None else count))
            actual = set(qc[key]["reasons"])
            for c in CODES:
                if (c in reasons) != (c in actual):
                    audit.add((key[0], key[1], c, "yes" if c in reasons else "no", "yes" if c in actual else "no"))
            if not reasons and not actual and count != cells[key]:
                audit.add((key[0], key[1], "CELLS", str(count), str(cells[key])))
        return ("\n".join(lines) + "\n").encode(), audit


def build(rng, kind):
    """(files, want): the session's files and its planned answers."""
    for _ in range(20):
        try:
            s = Session(rng, kind)
        except ValueError:
            continue
        files, audit = s.files()
        qc, drift, cells = s.truth()
        return files, dict(qc=qc, drift=drift, cells=cells, audit=audit)
    raise RuntimeError("could not plan a %s session" % kind)


def write_example(rng, kind, root):
    """Writes a public session and its expected files (from the plan) under root/session, root/expected."""
    import os
    files, want = build(rng, kind)
    for name, data in files.items():
        p = os.path.join(root, "session", name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    e = os.path.join(root, "expected")
    os.makedirs(e, exist_ok=True)
    with open(os.path.join(e, "qc.csv"), "w") as f:
        f.write("field,frame,status,reasons,saturation,background\n")
        for (fid, t), q in sorted(want["qc"].items()):
            f.write("%s,%d,%s,%s,%.4f,%.1f\n" % (fid, t, "fail" if q["reasons"] else "pass", ";".join(q["reasons"]),
                                                 q["sat"] / q["npx"], q["background"]))
    with open(os.path.join(e, "drift.csv"), "w") as f:
        f.write("field,frame,dx,dy\n")
        for (fid, t), (dx, dy) in sorted(want["drift"].items()):
            f.write("%s,%d,%d,%d\n" % (fid, t, dx, dy))
    with open(os.path.join(e, "cells.csv"), "w") as f:
        f.write("field,frame,cells\n")
        for (fid, t), n in sorted(want["cells"].items()):
            f.write("%s,%d,%d\n" % (fid, t, n))
    with open(os.path.join(e, "audit.csv"), "w") as f:
        f.write("field,frame,item,reported,actual\n")
        for r in sorted(want["audit"], key=lambda r: (r[0], r[1], r[2])):
            f.write("%s,%d,%s,%s,%s\n" % r)


if __name__ == "__main__":
    # python3 tests/gen.py OUT_DIR: the two public sessions (fixed seeds), as shipped.
    import random
    import sys
    for i, kind in ((1, "ex1"), (2, "ex2")):
        write_example(random.Random("microscopy-qc example %d" % i), kind, "%s/example%d" % (sys.argv[1], i))
