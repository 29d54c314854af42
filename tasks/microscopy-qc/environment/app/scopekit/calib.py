"""Dark and flat-field correction."""


def correct(raw, dark, flat):
    """Flat-field the frame, then remove the camera offset."""
    h, w = len(raw), len(raw[0])
    mean_flat = sum(map(sum, flat)) / (w * h)
    return [[raw[y][x] / flat[y][x] * mean_flat - dark[y][x] if flat[y][x] > 0 else 0.0 for x in range(w)]
            for y in range(h)]
