"""Scene index and tile loading."""
import json
import os

from .png import read_png

# Files are written blue, green, red, nir: _b1 .. _b4.
GREEN, NIR = 2, 4


def load_index(case_dir):
    with open(os.path.join(case_dir, "index.json"), encoding="utf-8") as f:
        return json.load(f)


def load_tile(case_dir, scene, tile):
    """Returns (green, nir, qa) as flat lists in row-major order."""
    stem = os.path.join(case_dir, tile["path"])

    def band(k):
        w, h, rows = read_png("%s_b%d.png" % (stem, k))
        if (w, h) != (tile["width"], tile["height"]):
            raise ValueError("%s: size %dx%d, index says %dx%d" % (stem, w, h, tile["width"], tile["height"]))
        return [v for r in rows for v in r]

    green = band(GREEN)
    nir = band(NIR)
    _, _, qrows = read_png(stem + "_qa.png")
    qa = [v for r in qrows for v in r]
    return green, nir, qa
