"""Periapsis passages: sign changes of r·v from negative to positive, refined by bisection."""
from .kepler import propagate
from .vectors import dot


def radial(r0v, v0v, mu, t):
    r, v = propagate(r0v, v0v, mu, t)
    return dot(r, v)


def periapsis_times(r0v, v0v, mu, t0, t1, step):
    """Times t in [t0, t1) (since the state's epoch) where the body passes periapsis."""
    found = []
    a = t0
    fa = radial(r0v, v0v, mu, a)
    while a < t1:
        b = min(a + step, t1)
        fb = radial(r0v, v0v, mu, b)
        if fa < 0 <= fb or (fa == 0 and a == t0):
            lo, hi = a, b
            if fa == 0:
                hi = lo
            for _ in range(200):
                if hi - lo <= 1e-9 * max(1.0, abs(lo)):
                    break
                mid = 0.5 * (lo + hi)
                if radial(r0v, v0v, mu, mid) < 0:
                    lo = mid
                else:
                    hi = mid
            t = 0.5 * (lo + hi)
            if t0 <= t < t1:
                found.append(t)
        a, fa = b, fb
    return found
