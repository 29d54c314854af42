"""The blob table of one image (docs/SPEC.md section 3)."""
from . import label, pixels, png

MIN_AREA = 6


def touches_border(comp, w, h):
    for x, y in comp:
        if x == 0 or y == 0 or x == w or y == h:
            return True
    return False


def describe(comp):
    n = len(comp)
    sx = sum(x for x, _ in comp)
    sy = sum(y for _, y in comp)
    return {"area": n, "cx": round(sx / n, 2), "cy": round(sy / n, 2)}


def analyse_image(img):
    mask = pixels.foreground(img)
    listed, border = [], 0
    for comp in label.components(mask):
        if len(comp) <= MIN_AREA:
            continue
        if touches_border(comp, img.width, img.height):
            border += 1
            continue
        listed.append(describe(comp))
    listed.sort(key=lambda b: (b["cy"], b["cx"]))
    return {"width": img.width, "height": img.height, "count": len(listed),
            "border_count": border, "blobs": listed}


def analyse_path(path):
    """The colony table of the PNG at `path` (renamed from analyse() in rev. C)."""
    return analyse_image(png.load(path))
