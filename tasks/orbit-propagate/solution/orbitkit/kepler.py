"""Universal-variable Kepler propagation for any conic (ellipse, parabola, hyperbola)."""
import math

from .stumpff import c2c3
from .vectors import combine, dot, norm


def period_of(alpha, mu):
    """Orbital period for alpha = 1/a > 0."""
    return 2.0 * math.pi / math.sqrt(mu * alpha ** 3)


def solve_chi(r0, rv, alpha, mu, dt):
    """Universal anomaly chi for the time of flight dt (any sign), safeguarded Newton."""
    sm = math.sqrt(mu)

    def tof(chi):
        z = alpha * chi * chi
        c, s = c2c3(z)
        val = rv / sm * chi * chi * c + (1.0 - alpha * r0) * chi ** 3 * s + r0 * chi - sm * dt
        der = rv / sm * chi * (1.0 - z * s) + (1.0 - alpha * r0) * chi * chi * c + r0
        return val, der

    sign = 1.0 if dt > 0 else -1.0
    lo, hi = 0.0, sm * dt / r0
    while tof(hi)[0] * sign < 0:
        lo, hi = hi, hi * 2.0
    a, b = min(lo, hi), max(lo, hi)
    chi = 0.5 * (a + b)
    for _ in range(200):
        val, der = tof(chi)
        if val > 0:
            b = chi
        else:
            a = chi
        nxt = chi - val / der
        if not a < nxt < b:
            nxt = 0.5 * (a + b)
        if abs(nxt - chi) <= 1e-15 * max(1.0, abs(chi)):
            return nxt
        chi = nxt
    return chi


def propagate(r0v, v0v, mu, dt):
    """(r, v) after dt (same length/time units as the inputs and mu)."""
    r0 = norm(r0v)
    rv = dot(r0v, v0v)
    alpha = 2.0 / r0 - dot(v0v, v0v) / mu
    if alpha > 1e-12 / r0:
        dt = math.fmod(dt, period_of(alpha, mu))
    if dt == 0:
        return list(r0v), list(v0v)
    sm = math.sqrt(mu)
    chi = solve_chi(r0, rv, alpha, mu, dt)
    z = alpha * chi * chi
    c, s = c2c3(z)
    f = 1.0 - chi * chi / r0 * c
    g = dt - chi ** 3 / sm * s
    r = combine(f, r0v, g, v0v)
    rn = norm(r)
    fdot = sm / (rn * r0) * chi * (z * s - 1.0)
    gdot = 1.0 - chi * chi / rn * c
    v = combine(fdot, r0v, gdot, v0v)
    return r, v
