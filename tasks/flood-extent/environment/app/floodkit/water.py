"""Per-pixel classification: NDWI water test and the QA mask."""
FILL, CLOUD, SHADOW = 1, 8, 16


def is_fill(qa):
    return qa & FILL != 0


def is_clear(qa):
    return qa & CLOUD == 0


def is_cloudy(qa):
    """Cloud or cloud shadow (fill pixels are not counted)."""
    return qa == CLOUD


def ndwi(green, nir):
    s = green + nir
    return None if s == 0 else (nir - green) / s


def is_water(green, nir):
    v = ndwi(green, nir)
    return v is not None and v > 0
