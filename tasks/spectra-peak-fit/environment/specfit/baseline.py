"""Baseline: a polynomial fitted to the points outside every peak window, then subtracted."""
from .linalg import lstsq_poly


def window_mask(x, center, half_width):
    """Points of the window around center."""
    k = min(range(len(x)), key=lambda i: abs(x[i] - center))
    n = int(half_width)
    return [k - n <= i <= k + n for i in range(len(x))]


def remove_baseline(x, y, centers, half_width, degree):
    inside = [False] * len(x)
    for c in centers:
        for i, m in enumerate(window_mask(x, c, half_width)):
            inside[i] = inside[i] or m
    lo, hi = x[0], x[-1]
    mid, half = (lo + hi) / 2.0, (hi - lo) / 2.0 or 1.0
    ts = [(v - mid) / half for v in x]
    bx = [t for t, m in zip(ts, inside) if not m]
    by = [v for v, m in zip(y, inside) if not m]
    coef = lstsq_poly(bx, by, degree)
    base = [sum(c * t ** j for j, c in enumerate(coef)) for t in ts]
    return [v - b for v, b in zip(y, base)], base
