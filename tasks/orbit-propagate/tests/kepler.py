"""Universal-variable two-body propagation (any conic), bracketed Newton on the time equation."""
import math

TIME = {"s": 1.0, "min": 60.0, "h": 3600.0, "day": 86400.0}


def stumpff(z):
    if z > 1e-6:
        s = math.sqrt(z)
        return (1 - math.cos(s)) / z, (s - math.sin(s)) / (s ** 3)
    if z < -1e-6:
        s = math.sqrt(-z)
        return (math.cosh(s) - 1) / (-z), (math.sinh(s) - s) / (s ** 3)
    return 0.5 - z / 24 + z * z / 720, 1 / 6 - z / 120 + z * z / 5040


def propagate(r0v, v0v, mu, dt):
    r0 = math.sqrt(sum(x * x for x in r0v))
    v2 = sum(x * x for x in v0v)
    rv = sum(a * b for a, b in zip(r0v, v0v))
    alpha = 2 / r0 - v2 / mu
    if alpha > 1e-12 * (1 / r0):
        period = 2 * math.pi / math.sqrt(mu * alpha ** 3)
        dt = math.fmod(dt, period)
    if dt == 0:
        return list(r0v)
    sm = math.sqrt(mu)

    def F(chi):
        z = alpha * chi * chi
        c, s = stumpff(z)
        f = rv / sm * chi * chi * c + (1 - alpha * r0) * chi ** 3 * s + r0 * chi - sm * dt
        d = rv / sm * chi * (1 - z * s) + (1 - alpha * r0) * chi * chi * c + r0
        return f, d

    sign = 1 if dt > 0 else -1
    lo, hi = 0.0, sign * sm * abs(dt) / r0
    while F(hi)[0] * sign < 0:
        lo, hi = hi, hi * 2
    a, b = min(lo, hi), max(lo, hi)
    chi = (a + b) / 2
    for _ in range(200):
        f, d = F(chi)
        if f > 0:
            b = chi
        else:
            a = chi
        nxt = chi - f / d
        if not (a < nxt < b):
            nxt = (a + b) / 2
        if abs(nxt - chi) <= 1e-15 * max(1.0, abs(chi)):
            chi = nxt
            break
        chi = nxt
    z = alpha * chi * chi
    c, s = stumpff(z)
    f = 1 - chi * chi / r0 * c
    g = dt - chi ** 3 / sm * s
    return [f * a + g * b for a, b in zip(r0v, v0v)]


def solve(doc):
    tu = doc["times"].get("unit", "s")
    out = {}
    for b in doc["bodies"]:
        scale = TIME[tu] / TIME[b.get("time_unit", "s")]
        out[b["id"]] = [propagate(b["r"], b["v"], b["mu"], t * scale) for t in doc["times"]["values"]]
    return {"positions": out}
