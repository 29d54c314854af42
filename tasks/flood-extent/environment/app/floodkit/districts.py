"""District polygons (GeoJSON Polygon / MultiPolygon, holes included) and point membership."""
import json


class District:
    def __init__(self, name, rings):
        self.name = name
        self.rings = rings
        xs = [p[0] for r in rings for p in r]
        ys = [p[1] for r in rings for p in r]
        self.box = (min(xs), min(ys), max(xs), max(ys))

    def contains(self, x, y):
        x0, y0, x1, y1 = self.box
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return False
        inside = False
        for ring in self.rings:
            n = len(ring)
            for i in range(n):
                ax, ay = ring[i - 1]
                bx, by = ring[i]
                if (ay > y) != (by > y):
                    cx = ax + (y - ay) * (bx - ax) / (by - ay)
                    if x < cx:
                        inside = not inside
        return inside


def load_districts(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for feat in doc["features"]:
        geom = feat["geometry"]
        polys = [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]
        rings = [[tuple(p[:2]) for p in poly[0]] for poly in polys]
        out.append(District(feat["properties"]["name"], rings))
    return out
