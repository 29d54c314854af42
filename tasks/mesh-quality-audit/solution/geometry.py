"""Triangle geometry: signed area (counter-clockwise positive) and interior angles."""
import math


def signed_area(a, b, c):
    return 0.5 * ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _dist(p, q):
    return math.hypot(q[0] - p[0], q[1] - p[1])


def angles(a, b, c):
    """Interior angles at a, b, c in degrees (law of cosines)."""
    la, lb, lc = _dist(b, c), _dist(c, a), _dist(a, b)
    out = []
    for opp, s1, s2 in ((la, lb, lc), (lb, lc, la), (lc, la, lb)):
        cos = (s1 * s1 + s2 * s2 - opp * opp) / (2 * s1 * s2)
        out.append(math.degrees(math.acos(max(-1.0, min(1.0, cos)))))
    return out


def min_angle(a, b, c):
    return min(angles(a, b, c))


def angle_bin(angle):
    """Bins [0,10), [10,20), ..., [40,50), [50,60]."""
    return min(int(angle // 10), 5)
