"""A session: calibration, per-frame QC, drift, cell counts."""
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
        first = frames[0]
        for f in frames:
            f.drift = register(first.img, f.img, WINDOW)
            if not f.reasons:
                f.cells = len(components(f.img))

    def frames(self):
        for fid in sorted(self.fields):
            yield from self.fields[fid]

    def audit(self):
        # TODO: compare with the facility's previous_qc.csv (see the SOP, section 6).
        raise NotImplementedError("audit is not written yet")
