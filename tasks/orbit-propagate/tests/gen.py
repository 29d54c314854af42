"""Seeded orbit cases from classical elements."""
import math

SYSTEMS = [  # (mu, length unit, time unit, typical periapsis radius)
    (398600.4418, "km", "s", 7000.0),
    (3.986004418e14, "m", "s", 7.0e6),
    (2.9591220828559115e-4, "AU", "day", 1.0),
    (4902.800066, "km", "s", 1900.0),
]


def state(mu, a, e, i, raan, argp, nu):
    p = a * (1 - e * e)
    r = p / (1 + e * math.cos(nu))
    rp = [r * math.cos(nu), r * math.sin(nu), 0.0]
    vp = [-math.sqrt(mu / p) * math.sin(nu), math.sqrt(mu / p) * (e + math.cos(nu)), 0.0]
    cO, sO, ci, si, cw, sw = math.cos(raan), math.sin(raan), math.cos(i), math.sin(i), math.cos(argp), math.sin(argp)
    R = [[cO * cw - sO * sw * ci, -cO * sw - sO * cw * ci, sO * si],
         [sO * cw + cO * sw * ci, -sO * sw + cO * cw * ci, -cO * si],
         [sw * si, cw * si, ci]]
    rot = lambda v: [sum(R[k][j] * v[j] for j in range(3)) for k in range(3)]
    return rot(rp), rot(vp)


def body(rng, kind, idx):
    mu, lu, tu, rp = rng.choice(SYSTEMS)
    rp *= rng.uniform(1.0, 1.6)
    if kind == "circular":
        e, i = (0.0 if rng.random() < 0.5 else rng.uniform(0, 1e-7)), (0.0 if rng.random() < 0.6 else rng.choice([math.pi, 1e-9]))
    elif kind == "eccentric":
        e, i = rng.uniform(0.7, 0.97), rng.uniform(0, math.pi)
    elif kind == "hyperbolic":
        e, i = rng.choice([rng.uniform(1.05, 3.0), 1.0 + rng.uniform(-1e-5, 1e-5)]), rng.uniform(0, math.pi)
    else:
        e, i = rng.uniform(0, 0.9), rng.uniform(0, math.pi)
    a = rp / (1 - e) if abs(1 - e) > 1e-9 else None
    if a is None:
        e, a = 1.00001, rp / (1 - 1.00001)
    nu = rng.uniform(-math.pi, math.pi)
    if e >= 1:
        lim = math.acos(-1 / e) * 0.9
        nu = rng.uniform(-lim, lim * 0.3)
    r, v = state(mu, a, e, i, rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi), nu)
    return dict(id="obj-%d-%04d" % (idx, rng.randint(0, 9999)), mu=mu, r=r, v=v, length_unit=lu, time_unit=tu), mu, a, e


def case(rng, kind):
    bodies, spans = [], []
    for k in range(rng.randint(2, 4)):
        b, mu, a, e = body(rng, kind, k)
        bodies.append(b)
        scale = 86400.0 if b["time_unit"] == "day" else 1.0
        if e < 1:
            spans.append(2 * math.pi * math.sqrt(a ** 3 / mu) * scale)
        else:
            # Flybys: a few tens of periapsis time scales, so the bodies stay in a sane range.
            spans.append(math.sqrt(abs(a * (1 - e)) ** 3 / mu) * 30 * scale)
    tunit = "s"
    if kind == "units":
        tunit = rng.choice(["min", "h", "day"])
    per = {"s": 1.0, "min": 60.0, "h": 3600.0, "day": 86400.0}[tunit]
    revs = 60 if kind == "eccentric" else 3
    # Times shared by all bodies: a sweep of the shortest span plus long (many-revolution) offsets.
    base = min(spans)
    vals = sorted({round(rng.uniform(-0.3 if kind == "units" else 0, revs) * base / per, 3) for _ in range(6)} - {0.0})
    if kind in ("hyperbolic",):
        vals = sorted({round(rng.uniform(-1, 1) * base / per, 3) for _ in range(6)} - {0.0})
    return dict(bodies=bodies, times=dict(unit=tunit, values=vals))


# ---- catalogues (report) and claims (audit) ----
PLANETS = [  # (mu, length unit, time unit, body radius, periapsis radius scale)
    (398600.4418, "km", "s", 6378.137, 7000.0),
    (3.986004418e14, "m", "s", 6378137.0, 7.0e6),
    (4902.800066, "km", "s", 1737.4, 1900.0),
    (2.9591220828559115e-4, "AU", "day", 0.00465047, 0.4),
]
LEAP_DAYS = ["2012-06-30", "2015-06-30", "2016-12-31"]


def utc(day, sec):
    """'YYYY-MM-DDTHH:MM:SS.sssZ' for calendar second `sec` after the start of `day` (no leap)."""
    import datetime
    d = datetime.date.fromisoformat(day) + datetime.timedelta(days=int(sec // 86400))
    s = sec - (sec // 86400) * 86400
    h, rest = divmod(s, 3600)
    m, x = divmod(rest, 60)
    return "%sT%02d:%02d:%06.3fZ" % (d.isoformat(), h, m, x)


def catalog_object(rng, kind, idx, leap):
    mu, lu, tu, radius, rp = PLANETS[rng.randrange(3)] if kind == "time" or idx == 2 else rng.choice(PLANETS)
    if kind == "orbits" and idx == 4:
        mu, lu, tu, radius, rp = PLANETS[3]
    rp *= rng.uniform(1.05, 1.5)
    i = rng.uniform(0.05, math.pi - 0.05)
    e = rng.uniform(0.01, 0.8)
    if kind == "orbits":
        pick = idx % 5  # every catalogue holds each kind: equatorial, circular, hyperbolic, eccentric, AU
        if pick == 0:
            i = rng.choice([0.0, math.pi])
        elif pick == 1:
            e = 0.0
        elif pick == 2:
            e = rng.uniform(1.2, 2.5)
        elif pick == 3:
            e = rng.uniform(0.85, 0.95)
    a = rp / (1 - e)
    nu = rng.uniform(-math.pi, math.pi)
    if e > 1:
        lim = math.acos(-1 / e) * 0.6
        nu = rng.uniform(-lim, -0.05)
    r, v = state(mu, a, e, i, rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi), nu)
    if kind == "time" and rng.random() < 0.35:
        epoch = leap + "T23:59:60.%03dZ" % rng.randrange(1000)
    elif kind == "time":
        epoch = utc(leap, 86400 + rng.uniform(-5000, 5000))
    else:
        epoch = utc(leap, 86400 + rng.uniform(-3 * 86400, 3 * 86400))
    return dict(id="sat-%03d" % rng.randrange(1000) + "abcdefgh"[idx], epoch_utc=epoch, mu=mu, r=r, v=v,
                length_unit=lu, time_unit=tu, body_radius=radius)


def catalog(rng, kind, count=None):
    """A catalogue and window around a leap second; passages kept ≥ 0.05 s from the window edges."""
    import ref
    leap = rng.choice(LEAP_DAYS)
    objs = [catalog_object(rng, kind, k, leap) for k in range(count or (6 if kind == "orbits" else rng.randint(4, 6)))]
    for _ in range(100):
        s0 = 86400 + rng.uniform(-4000, 2000) if kind == "time" else 86400 + rng.uniform(-86400, 86400)
        if kind == "time" and rng.random() < 0.3:
            start = leap + "T23:59:60.%03dZ" % rng.randrange(1000)
        else:
            start = utc(leap, s0)
        length = rng.uniform(4 * 3600, 14 * 3600)
        end = utc(leap, s0 + length)
        for o in objs:
            if kind == "orbits" and ref.orbit(o["r"], o["v"], o["mu"])["e"] > 1:
                tp = ref.periapsis_after_epoch(o["r"], o["v"], o["mu"])[0] * ref.SECONDS[o["time_unit"]]
                o["epoch_utc"] = utc(leap, s0 - tp + rng.uniform(0.1, 0.9) * length)
        span = ref.elapsed(start, end)
        if any(t < 0.05 or span - t < 0.05 for o in objs for t in ref.passages(o, start, end) + [
                x for x in [ref.periapsis_after_epoch(o["r"], o["v"], o["mu"])[0] * ref.SECONDS[o["time_unit"]] - ref.elapsed(o["epoch_utc"], start)]
                if -1 < x < 0.1 or -1 < x - span < 1]):
            continue
        return dict(window=dict(start_utc=start, end_utc=end), objects=objs)
    raise RuntimeError("no clean window")


MISTAKES = ["none", "none", "units", "units", "leap", "leap", "reversed", "position", "period", "period"]


def claims(rng, count):
    """Claims built by construction: the right answer, or one planted mistake."""
    import ref
    out = []
    plan = MISTAKES[:]
    rng.shuffle(plan)
    for k in range(count):
        leap = rng.choice(LEAP_DAYS)
        mu, lu, tu, radius, rp = PLANETS[rng.randrange(3)]
        e = rng.choice([0.0, rng.uniform(0.01, 0.7), rng.uniform(1.2, 2.0)])
        a = rp * rng.uniform(1.05, 1.5) / (1 - e)
        nu = rng.uniform(-1.0, 1.0) if e > 1 else rng.uniform(-math.pi, math.pi)
        r, v = state(mu, a, e, rng.uniform(0, math.pi), rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi), nu)
        obj = dict(id="obj-%d" % k, epoch_utc=utc(leap, 86400 + rng.uniform(-20000, -700)), mu=mu, r=r, v=v,
                   length_unit=lu, time_unit=tu, body_radius=radius)
        at = utc(leap, 86400 + rng.uniform(700, 20000)) if rng.random() < 0.8 else leap + "T23:59:60.500Z"
        dt = ref.elapsed(obj["epoch_utc"], at)
        right = ref.state(r, v, mu, dt)[0]
        per = ref.orbit(r, v, mu)["period"]
        m = plan[k] if k < len(plan) else rng.choice(MISTAKES)
        pos, p = right, per
        if m == "units":
            f = (1000.0, 0.001)[plan[:k].count("units") % 2]
            pos = [x * f for x in right]
        elif m == "leap":
            pos = ref.state(r, v, mu, dt + (-1.0, 1.0)[plan[:k].count("leap") % 2])[0]
        elif m == "reversed":
            pos = ref.state(r, v, mu, -dt)[0]
        elif m == "position":
            pos = [x + rng.uniform(-1, 1) * 1e-3 * ref.mag(right) for x in right]
        elif m == "period":
            p = per * (86164.0905 / 86400.0, 1.001)[plan[:k].count("period") % 2] if per else 1234.5
        out.append(dict(claim_id="C%03d" % (k + 1), object=obj, at_utc=at, r=pos, period=p))
    rng.shuffle(out)
    return dict(claims=out)
