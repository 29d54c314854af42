"""A session: calibration, per-frame QC, drift between passing frames, cell counts, report audit."""
import csv
import json
import os

from .calib import correct
from .cells import components
from .metrics import focus_score, median, saturation_fraction, uniformity
from .pgm import read_pgm
from .register import register

SAT_LIMIT = 0.01
FOCUS_RATIO = 0.4
UNIFORMITY_MIN = 0.8
WINDOW = 6
CODES = ("BLURRED", "SATURATED", "SHADED")


class Frame:
    def __init__(self, field, index, path, dark, flat):
        _, _, maxval, raw = read_pgm(path)
        self.field, self.index = field, index
        self.img = correct(raw, dark, flat)
        self.saturation = saturation_fraction(raw, maxval)
        self.focus = focus_score(self.img)
        self.uniformity = uniformity(self.img)
        self.background = median([v for r in self.img for v in r])
        self.reasons = []
        self.drift = None
        self.cells = None


class Session:
    def __init__(self, session_dir):
        self.dir = session_dir
        with open(os.path.join(session_dir, "session.json"), encoding="utf-8") as f:
            self.meta = json.load(f)
        dark = read_pgm(os.path.join(session_dir, self.meta["dark"]))[3]
        flat = read_pgm(os.path.join(session_dir, self.meta["flat"]))[3]
        self.fields = {}
        for fd in sorted(self.meta["fields"], key=lambda f: f["id"]):
            frames = [Frame(fd["id"], i, os.path.join(session_dir, p), dark, flat) for i, p in enumerate(fd["frames"])]
            self.fields[fd["id"]] = frames
            self.qc(frames)
            self.track(frames)

    def qc(self, frames):
        ref = median([f.focus for f in frames])
        for f in frames:
            if f.focus < FOCUS_RATIO * ref:
                f.reasons.append("BLURRED")
            if f.saturation > SAT_LIMIT:
                f.reasons.append("SATURATED")
            if f.uniformity < UNIFORMITY_MIN:
                f.reasons.append("SHADED")

    def track(self, frames):
        good = [f for f in frames if not f.reasons]
        if not good:
            return
        dx = dy = 0
        good[0].drift = (0, 0)
        for prev, cur in zip(good, good[1:]):
            sx, sy = register(prev.img, cur.img, WINDOW)
            dx, dy = dx + sx, dy + sy
            cur.drift = (dx, dy)
        h, w = len(good[0].img), len(good[0].img[0])
        x0 = max(-f.drift[0] for f in good)
        x1 = min(w - 1 - f.drift[0] for f in good)
        y0 = max(-f.drift[1] for f in good)
        y1 = min(h - 1 - f.drift[1] for f in good)
        for f in good:
            f.cells = sum(1 for cx, cy in components(f.img)
                          if x0 <= cx - f.drift[0] <= x1 and y0 <= cy - f.drift[1] <= y1)

    def frames(self):
        for fid in sorted(self.fields):
            yield from self.fields[fid]

    def audit(self):
        """Rows (field, frame, item, reported, actual) where the previous report disagrees."""
        path = os.path.join(self.dir, "previous_qc.csv")
        reported = {}
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                codes = {c.strip() for c in (r.get("reasons") or "").split(";") if c.strip()}
                cells = (r.get("cells") or "").strip()
                reported[(r["field"].strip(), int(r["frame"]))] = (codes, int(cells) if cells else None)
        rows = []
        for fr in self.frames():
            rep = reported.get((fr.field, fr.index))
            if rep is None:
                continue
            codes, cells = rep
            for c in CODES:
                if (c in codes) != (c in fr.reasons):
                    rows.append((fr.field, fr.index, c, "yes" if c in codes else "no", "yes" if c in fr.reasons else "no"))
            if not codes and not fr.reasons and cells != fr.cells:
                rows.append((fr.field, fr.index, "CELLS", "" if cells is None else str(cells), str(fr.cells)))
        return sorted(rows, key=lambda r: (r[0], r[1], r[2]))
