"""Orbit summary from a state vector: a, e, inclination, period, periapsis radius."""
import math

from .kepler import period_of
from .vectors import combine, cross, dot, norm


def summary(rv, vv, mu):
    r = norm(rv)
    h = cross(rv, vv)
    hn = norm(h)
    alpha = 2.0 / r - dot(vv, vv) / mu
    # Eccentricity vector: ((v² − mu/r)·r − (r·v)·v) / mu
    ev = combine((dot(vv, vv) - mu / r) / mu, rv, -dot(rv, vv) / mu, vv)
    e = norm(ev)
    cos_i = max(-1.0, min(1.0, h[2] / hn))
    inc = math.degrees(math.acos(cos_i))
    p = hn * hn / mu
    rp = p / (1.0 + e)
    return {
        "a": (1.0 / alpha) if alpha != 0 else None,
        "e": e,
        "i_deg": inc,
        "period": period_of(abs(alpha), mu),
        "periapsis_radius": rp,
    }
