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
    vals = sorted({round(rng.uniform(-0.3 if kind == "units" else 0, revs) * base / per, 3) for _ in range(6)} | {0.0})
    if kind in ("hyperbolic",):
        vals = sorted({round(rng.uniform(-1, 1) * base / per, 3) for _ in range(6)} | {0.0})
    return dict(bodies=bodies, times=dict(unit=tunit, values=vals))
