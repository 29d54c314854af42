"""The grader's own route to every report and audit answer, written from docs/SPEC.md.

Positions come from fg_reference (f and g in dE / dH); velocities from the time derivatives of the
same f and g; periapsis times analytically from the mean anomaly at epoch (no scanning, no root
finding on r·v); UTC epochs by counting the leap seconds inserted before an instant (no offset
table lookup); inclination by atan2 and eccentricity from v×h/mu − r/|r|.
"""
import datetime
import math

import fg_reference

SECONDS = {"s": 1.0, "min": 60.0, "h": 3600.0, "day": 86400.0}
# UTC days whose last minute has a 61st second.
LEAP_DAYS = [datetime.date(2012, 6, 30), datetime.date(2015, 6, 30), datetime.date(2016, 12, 31)]


def continuous(epoch):
    """Seconds since 2008-01-01 on a scale without leap-second jumps."""
    day, clock = epoch.rstrip("Z").split("T")
    y, mo, d = (int(x) for x in day.split("-"))
    h, mi, s = clock.split(":")
    date = datetime.date(y, mo, d)
    since = (date - datetime.date(2008, 1, 1)).days * 86400 + int(h) * 3600 + int(mi) * 60 + float(s)
    return since + sum(1 for L in LEAP_DAYS if L < date)


def elapsed(a, b):
    return continuous(b) - continuous(a)


def mag(v):
    return math.sqrt(math.fsum(c * c for c in v))


def state(r0v, v0v, mu, dt):
    """Position (fg_reference) and velocity (derivatives of f and g in dE or dH)."""
    r = fg_reference.position(r0v, v0v, mu, dt)
    if dt == 0:
        return r, list(v0v)
    r0, rn = mag(r0v), mag(r)
    sigma = math.fsum(p * q for p, q in zip(r0v, v0v)) / math.sqrt(mu)
    inv_a = 2.0 / r0 - math.fsum(c * c for c in v0v) / mu
    # Recover the anomaly change from f: 1 − f = (a/r0)(1 − cos dE) or (a/r0)(cosh dH − 1), and
    # its sign/size from g; cheaper and independent: solve again through fg_reference's Newton.
    if inv_a > 0:
        a = 1 / inv_a
        n = math.sqrt(mu * inv_a ** 3)
        dm = math.remainder(n * dt, 2 * math.pi)
        es, q = sigma / math.sqrt(a), r0 / a

        def kep(x):
            return (fg_reference.x_minus_sin(x) + q * math.sin(x) + es * 2 * math.sin(0.5 * x) ** 2 - dm,
                    1 - (1 - q) * math.cos(x) + es * math.sin(x))
        de = fg_reference.newton(kep, dm - 2.0, dm + 2.0)
        fdot = -math.sqrt(mu * a) * math.sin(de) / (rn * r0)
        gdot = 1 - a / rn * 2 * math.sin(0.5 * de) ** 2
    else:
        a = -1 / inv_a
        n = math.sqrt(mu / a ** 3)
        dn = n * dt
        es, q = sigma / math.sqrt(a), r0 / a

        def kep(x):
            return (fg_reference.sinh_minus_x(x) + q * math.sinh(x) + es * 2 * math.sinh(0.5 * x) ** 2 - dn,
                    (1 + q) * math.cosh(x) - 1 + es * math.sinh(x))
        lo, hi = -1.0, 1.0
        while kep(lo)[0] > 0:
            lo *= 2
        while kep(hi)[0] < 0:
            hi *= 2
        dh = fg_reference.newton(kep, lo, hi)
        fdot = -math.sqrt(mu * a) * math.sinh(dh) / (rn * r0)
        gdot = 1 - a / rn * 2 * math.sinh(0.5 * dh) ** 2
    return r, [fdot * p + gdot * w for p, w in zip(r0v, v0v)]


def orbit(r, v, mu):
    h = [r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2], r[0] * v[1] - r[1] * v[0]]
    vxh = [v[1] * h[2] - v[2] * h[1], v[2] * h[0] - v[0] * h[2], v[0] * h[1] - v[1] * h[0]]
    rn = mag(r)
    e = mag([p / mu - c / rn for p, c in zip(vxh, r)])
    inv_a = 2.0 / rn - math.fsum(c * c for c in v) / mu
    inc = math.degrees(math.atan2(math.hypot(h[0], h[1]), h[2]))
    p = math.fsum(c * c for c in h) / mu
    return {"inv_a": inv_a, "e": e, "i_deg": inc, "rp": p / (1 + e),
            "period": 2 * math.pi * math.sqrt(1 / inv_a ** 3 / mu) if inv_a > 0 and e < 1 else None}


def periapsis_after_epoch(r0v, v0v, mu):
    """(time of a periapsis passage relative to the epoch, period or None), body time units."""
    r0 = mag(r0v)
    sigma = math.fsum(p * q for p, q in zip(r0v, v0v)) / math.sqrt(mu)
    inv_a = 2.0 / r0 - math.fsum(c * c for c in v0v) / mu
    if inv_a > 0:
        a = 1 / inv_a
        n = math.sqrt(mu * inv_a ** 3)
        e0 = math.atan2(sigma / math.sqrt(a), 1 - r0 / a)  # e·sinE0, e·cosE0
        ecc = math.hypot(sigma / math.sqrt(a), 1 - r0 / a)
        m0 = e0 - ecc * math.sin(e0)
        return -m0 / n, 2 * math.pi / n
    a = -1 / inv_a
    n = math.sqrt(mu / a ** 3)
    esh, ech = sigma / math.sqrt(a), 1 + r0 / a  # e·sinh H0, e·cosh H0
    ecc = math.sqrt(ech * ech - esh * esh)
    h0 = math.asinh(esh / ecc)
    return -(ecc * math.sinh(h0) - h0) / n, None


def passages(obj, start, end):
    """Periapsis passages in [start, end), SI seconds after start; [] when e < 1e-4."""
    mu, k = obj["mu"], SECONDS[obj.get("time_unit", "s")]
    if orbit(obj["r"], obj["v"], mu)["e"] < 1e-4:
        return []
    tp, per = periapsis_after_epoch(obj["r"], obj["v"], mu)
    t0 = elapsed(obj["epoch_utc"], start)
    t1 = elapsed(obj["epoch_utc"], end)
    tp *= k
    if per is None:
        return [tp - t0] if t0 <= tp < t1 else []
    per *= k
    j = math.ceil((t0 - tp) / per)
    out = []
    while tp + j * per < t1:
        out.append(tp + j * per - t0)
        j += 1
    return out


def report_row(obj, start, end):
    mu, k = obj["mu"], SECONDS[obj.get("time_unit", "s")]
    r, v = state(obj["r"], obj["v"], mu, elapsed(obj["epoch_utc"], start) / k)
    o = orbit(obj["r"], obj["v"], mu)
    return {"id": obj["id"], "r": r, "v": v, "a": 1 / o["inv_a"], "e": o["e"], "i_deg": o["i_deg"],
            "period": o["period"], "perigee_alt": o["rp"] - obj["body_radius"],
            "periapsis_s": passages(obj, start, end)}


def report(cat):
    w = cat["window"]
    return sorted((report_row(o, w["start_utc"], w["end_utc"]) for o in cat["objects"]), key=lambda x: x["id"])


def near(a, b, rel):
    return mag([p - q for p, q in zip(a, b)]) <= rel * mag(b)


def audit_reason(claim):
    """(reason or None, right position, right period) by SPEC section 6, in its order."""
    obj = claim["object"]
    mu, k = obj["mu"], SECONDS[obj.get("time_unit", "s")]
    dt = elapsed(obj["epoch_utc"], claim["at_utc"]) / k
    right = fg_reference.position(obj["r"], obj["v"], mu, dt)
    per = orbit(obj["r"], obj["v"], mu)["period"]
    got = claim["r"]
    if near(got, right, 1e-6):
        p = claim.get("period")
        ok = (p is None and per is None) or (p is not None and per is not None and abs(p - per) <= 1e-6 * per)
        return (None if ok else "BAD_PERIOD"), right, per
    if near(got, [x * 1000 for x in right], 1e-6) or near(got, [x / 1000 for x in right], 1e-6):
        return "WRONG_UNITS", right, per
    for s in (-1.0, 1.0):
        if near(got, fg_reference.position(obj["r"], obj["v"], mu, dt + s / k), 1e-6):
            return "LEAP_SECOND", right, per
    if near(got, fg_reference.position(obj["r"], obj["v"], mu, -dt), 1e-6):
        return "TIME_REVERSED", right, per
    return "BAD_POSITION", right, per
