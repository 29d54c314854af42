"""Both dates' tiles on the ground: pixel centre -> (tile id, green, nir, qa)."""
from .geo import pixel_centre
from .scene import load_tile


def ground_map(case_dir, scene):
    out = {}
    for tile in scene["tiles"]:
        green, nir, qa = load_tile(case_dir, scene, tile)
        w = tile["width"]
        for k in range(len(qa)):
            out[pixel_centre(tile["geotransform"], k % w, k // w)] = (tile["id"], green[k], nir[k], qa[k])
    return out
