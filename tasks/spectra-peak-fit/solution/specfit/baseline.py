"""Baseline: a polynomial fitted to the points outside every peak window, then subtracted."""
from .linalg import lstsq_poly


def window_mask(x, center, half_width):
    """Points whose axis value lies within half_width (axis units) of center."""
    return [abs(v - center) <= half_width for v in x]


def remove_baseline(x, y, centers, half_width, degree):
    inside = [False] * len(x)
    for c in centers:
        inside = [a or b for a, b in zip(inside, window_mask(x, c, half_width))]
    lo, hi = x[0], x[-1]
    mid, half = (lo + hi) / 2.0, (hi - lo) / 2.0 or 1.0
    ts = [(v - mid) / half for v in x]
    bx = [t for t, m in zip(ts, inside) if not m]
    by = [v for v, m in zip(y, inside) if not m]
    coef = lstsq_poly(bx, by, degree)
    # base(t) = sum(c_j * t ** j, j = 0..degree), the terms added in that order at every t; built
    # one term over the whole axis at a time, which is faster than a sum() call per point
    terms = [[c * t ** j for t in ts] for j, c in enumerate(coef)]
    base = [sum(z) for z in zip(*terms)]
    return [v - b for v, b in zip(y, base)], base
