"""Dark and flat-field correction (SOP section 2)."""


def correct(raw, dark, flat):
    """C = (raw - dark) / (flat - dark) * mean(flat - dark); pixels with flat <= dark give 0."""
    h, w = len(raw), len(raw[0])
    gain = [[flat[y][x] - dark[y][x] for x in range(w)] for y in range(h)]
    mean_gain = sum(map(sum, gain)) / (w * h)
    return [[(raw[y][x] - dark[y][x]) / gain[y][x] * mean_gain if gain[y][x] > 0 else 0.0 for x in range(w)]
            for y in range(h)]
