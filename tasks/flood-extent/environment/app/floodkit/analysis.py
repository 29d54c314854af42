"""Newly flooded area per district."""
import os

from .districts import load_districts
from .geo import pixel_centre
from .scene import load_index, load_tile
from .water import is_clear, is_water

HECTARES_PER_PIXEL = 0.01  # 10 m pixels


class Case:
    def __init__(self, case_dir):
        self.dir = case_dir
        self.index = load_index(case_dir)
        self.scenes = self.index["scenes"]

    def flood(self):
        districts = load_districts(os.path.join(self.dir, "districts.json"))
        pre_tiles = {t["id"]: t for t in self.scenes["pre"]["tiles"]}
        obs = {d.name: 0 for d in districts}
        new = {d.name: 0 for d in districts}
        for post in self.scenes["post"]["tiles"]:
            pre = pre_tiles.get(post["id"])
            if pre is None:
                continue
            g1, n1, q1 = load_tile(self.dir, self.scenes["pre"], pre)
            g2, n2, q2 = load_tile(self.dir, self.scenes["post"], post)
            w = post["width"]
            for k in range(min(len(q1), len(q2))):
                if not (is_clear(q1[k]) and is_clear(q2[k])):
                    continue
                x, y = pixel_centre(post["geotransform"], k % w, k // w)
                for d in districts:
                    if d.contains(x, y):
                        obs[d.name] += 1
                        if is_water(g2[k], n2[k]) and not is_water(g1[k], n1[k]):
                            new[d.name] += 1
        return [(name, obs[name] * HECTARES_PER_PIXEL, new[name] * HECTARES_PER_PIXEL) for name in sorted(obs)]

    def audit(self):
        # TODO: cloud fraction per tile, misregistration check (see the brief).
        raise NotImplementedError("audit is not written yet")
