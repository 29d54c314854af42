"""Newly flooded area per district and the tile audit."""
import os

from .districts import load_districts
from .geo import pixel_area_m2
from .mosaic import ground_map
from .scene import load_index
from .water import is_clear, is_cloudy, is_fill, is_water

MISREG_MEAN_NIR = 20.0
MISREG_MIN_PIXELS = 50
CLOUDY_FRACTION = 0.25


class Case:
    def __init__(self, case_dir):
        self.dir = case_dir
        self.index = load_index(case_dir)
        self.scenes = self.index["scenes"]
        self.pre = ground_map(case_dir, self.scenes["pre"])
        self.post = ground_map(case_dir, self.scenes["post"])
        self.misregistered = self.find_misregistered()

    def find_misregistered(self):
        diffs = {}
        for key, (tid, g, n, qa) in self.post.items():
            p = self.pre.get(key)
            if p is None or not is_clear(qa) or not is_clear(p[3]):
                continue
            if is_water(g, n) or is_water(p[1], p[2]):
                continue
            diffs.setdefault(tid, []).append(abs(n - p[2]))
        return {t for t, d in diffs.items() if len(d) >= MISREG_MIN_PIXELS and sum(d) / len(d) > MISREG_MEAN_NIR}

    def flood(self):
        districts = load_districts(os.path.join(self.dir, "districts.json"))
        tile = self.scenes["post"]["tiles"][0]
        area = pixel_area_m2(tile["geotransform"])
        obs = {d.name: 0 for d in districts}
        new = {d.name: 0 for d in districts}
        for key, (tid, g, n, qa) in self.post.items():
            p = self.pre.get(key)
            if p is None or tid in self.misregistered or not is_clear(qa) or not is_clear(p[3]):
                continue
            for d in districts:
                if d.contains(*key):
                    obs[d.name] += 1
                    if is_water(g, n) and not is_water(p[1], p[2]):
                        new[d.name] += 1
                    break
        ha = area / 10000.0
        return [(name, obs[name] * ha, new[name] * ha) for name in sorted(obs)]

    def audit(self):
        rows = []
        for date in ("pre", "post"):
            grid = self.pre if date == "pre" else self.post
            counts = {}
            for tid, g, n, qa in grid.values():
                c = counts.setdefault(tid, [0, 0])
                if not is_fill(qa):
                    c[1] += 1
                    c[0] += is_cloudy(qa)
            for tid in sorted(counts):
                cl, valid = counts[tid]
                frac = cl / valid if valid else 0.0
                rows.append((date, tid, frac, frac > CLOUDY_FRACTION, date == "post" and tid in self.misregistered))
        return rows
