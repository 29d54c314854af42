"""Builds flight logs whose cause is planted: each log is flown by a scripted pilot in a simple
simulator of the same dynamics, steered to a chosen touchdown (or to none), then the pad, the fuel,
the dropouts and the recorder's end line are placed so that exactly the chosen cause of FLIGHT.md §7
holds -- with margins on every threshold except the ones a case pins on purpose (a touchdown at
exactly the speed limits, a dropout on the touchdown record, on the first and just outside the last
of the 20 records of the window). Answers are (flight, cause, step) from the plan, never from a
classifier."""
import json
import math

DT = 0.1

# Every case of a hidden folder: (kind, variant).
CASES = [
    ("OK", "calm"), ("OK", "wind"), ("OK", "limits"),
    ("HARD_LANDING", "plain"), ("HARD_LANDING", "near_miss"), ("LATERAL_SKID", "plain"),
    ("FUEL_EXHAUSTED", "plain"), ("FUEL_EXHAUSTED", "dropouts"),
    ("SENSOR_DROPOUT", "at_touchdown"), ("SENSOR_DROPOUT", "window_start"),
    ("WIND_DRIFT", "plain"), ("OFF_PAD", "calm"), ("OFF_PAD", "upwind"),
    ("TIMEOUT", "plain"), ("PILOT_SILENT", "plain"), ("PILOT_SILENT", "first_step"),
]


def r4(v):
    return round(v, 4)


class Plan:
    def __init__(self, rng, kind, variant):
        self.kind, self.variant = kind, variant
        g = rng.uniform(1.5, 4.0)
        self.g = g
        self.A = g * rng.uniform(2.6, 3.4)
        self.max_angle = 0.5
        self.safe_vy, self.safe_vx = 2.0, 1.0
        self.hw = rng.uniform(3.0, 7.0)
        self.max_steps = rng.choice([300, 400, 500])
        windy = variant in ("wind", "upwind") or kind == "WIND_DRIFT" or (kind == "HARD_LANDING" and rng.random() < 0.5)
        self.wind = rng.choice([-1, 1]) * rng.uniform(0.2, 0.35) * g if windy else 0.0
        self.gust = 0.03 * g
        # Touchdown velocities.
        if kind == "OK" and variant == "limits":
            self.vy_td, self.vx_td = -2.0, rng.choice([-1.0, 1.0])
        elif kind in ("OK", "WIND_DRIFT", "OFF_PAD"):
            self.vy_td, self.vx_td = -rng.uniform(0.6, 1.8), rng.uniform(-0.7, 0.7)
        elif kind == "LATERAL_SKID":
            self.vy_td, self.vx_td = -rng.uniform(0.6, 1.8), rng.choice([-1, 1]) * rng.uniform(1.3, 2.4)
        else:
            self.vy_td, self.vx_td = -rng.uniform(2.4, 4.5), rng.uniform(-0.7, 0.7)


def command_for(ax, ay, A):
    """Thrust and angle whose acceleration is (ax, ay) (gravity not included)."""
    ay = max(ay, 1e-6)
    return min(1.0, math.hypot(ax, ay) / A), math.atan2(ax, ay)


def fly(rng, plan, fuel0, free_fall_below=None):
    """Steps of the scripted flight, each a dict of the applied command and the state after it.
    Steers to the planted touchdown velocities; the last step lands exactly at them (y <= 0)."""
    g, A = plan.g, plan.A
    x, y = rng.uniform(-40, 40), rng.uniform(30.0, 70.0)
    vx, vy = rng.uniform(-2, 2), rng.uniform(-3, 0)
    fuel, gust, out = fuel0, 0.0, []
    vfin = abs(plan.vy_td)
    for k in range(plan.max_steps):
        gust = gust * 0.9 + rng.gauss(0, plan.gust) * 0.4
        w = plan.wind + gust
        final = y <= vfin * DT * 1.5
        if final:
            thrust, ang = command_for((plan.vx_td - vx) / DT - w, (plan.vy_td - vy) / DT + g, A)
            thrust = math.hypot((plan.vx_td - vx) / DT - w, (plan.vy_td - vy) / DT + g) / A
        else:
            vy_t = -max(vfin, 0.2 * y) if free_fall_below is None or y > free_fall_below else vy
            ax = 0.8 * (plan.vx_td - vx) - w
            ay = g + 1.2 * (vy_t - vy)
            thrust, ang = command_for(ax, ay, A)
            ang = max(-plan.max_angle, min(plan.max_angle, ang))
        if fuel <= 0:
            thrust = 0.0
        fuel = max(0.0, fuel - thrust * DT)
        vx += (thrust * A * math.sin(ang) + w) * DT
        vy += (thrust * A * math.cos(ang) - g) * DT
        if final and thrust > 0:
            vx, vy = plan.vx_td, plan.vy_td  # the solved command hits them (up to rounding)
        x += vx * DT
        y += vy * DT
        out.append(dict(step=k, thrust=thrust, angle=ang, x=x, y=y, vx=vx, vy=vy, fuel=fuel, wind=w))
        if y <= 0:
            return out
    return out


def render(name, plan, header_extra, steps, obs_nulls, with_end, rng, noisy):
    lines = [dict(type="header", flight=name, gravity=r4(plan.g), max_accel=r4(plan.A), dt=DT,
                  max_steps=plan.max_steps, pad_x=header_extra["pad_x"], pad_half_width=r4(plan.hw),
                  burn_rate=1.0, fuel=header_extra["fuel"], max_angle=plan.max_angle,
                  safe_vy=plan.safe_vy, safe_vx=plan.safe_vx)]
    prev = None
    for s in steps:
        src = prev or s
        obs = {}
        for key in ("x", "y", "vx", "vy"):
            sd = (0.5 if key in ("x", "y") else 0.2) if noisy else 0.0
            obs[key] = r4(src[key] + rng.gauss(0, sd)) if sd else r4(src[key])
        for key in obs_nulls.get(s["step"], ()):
            obs[key] = None
        lines.append(dict(type="step", step=s["step"], obs=obs, thrust=r4(s["thrust"]), angle=r4(s["angle"]),
                          x=r4(s["x"]), y=r4(s["y"]), vx=r4(s["vx"]), vy=r4(s["vy"]), fuel=r4(s["fuel"])))
        prev = s
    if with_end:
        lines.append(dict(type="end", outcome=header_extra.get("claimed", "landed")))
    return "\n".join(json.dumps(l) for l in lines) + "\n"


def logged_wind(plan, steps):
    """The planted wind as the log shows it (rounded values): used only to keep WIND cases far from
    the threshold, never as the answer."""
    vals = []
    for a, b in zip(steps, steps[1:]):
        vals.append((r4(b["vx"]) - r4(a["vx"])) / DT - r4(b["thrust"]) * plan.A * math.sin(r4(b["angle"])))
    return sum(vals) / len(vals)


def one(rng, name, kind, variant):
    """(log text, cause, step), or None when this draw missed a margin (the caller draws again)."""
    plan = Plan(rng, kind, variant)
    fuel0 = round(rng.uniform(30, 45), 2)
    nulls = {}
    if kind == "FUEL_EXHAUSTED":
        probe = fly(rng.__class__(rng.random()), plan, 1e9)
        fuel0 = round(sum(s["thrust"] for s in probe) * DT * rng.uniform(0.3, 0.6), 2)
    if kind in ("TIMEOUT", "PILOT_SILENT"):
        steps = hover(rng, plan, fuel0)
    else:
        steps = fly(rng, plan, fuel0)
        if len(steps) >= plan.max_steps - 1 or steps[-1]["y"] > 0 or len(steps) < 40:
            return None
        if any(s["y"] <= 0 for s in steps[:-1]):
            return None
    if any(s["thrust"] > 1.0 or abs(s["angle"]) > plan.max_angle for s in steps):
        return None  # a command the lander cannot give
    td = steps[-1]
    if kind not in ("TIMEOUT", "PILOT_SILENT"):
        # The touchdown as logged must be what the plan says.
        vy, vx = r4(td["vy"]), r4(td["vx"])
        soft = abs(vy) <= plan.safe_vy and abs(vx) <= plan.safe_vx
        if kind == "FUEL_EXHAUSTED":
            if soft or not any(s["fuel"] <= 0 for s in steps[:-1]):
                return None
        elif soft != (kind in ("OK", "WIND_DRIFT", "OFF_PAD")):
            return None
        if kind == "OK" and variant == "limits" and (abs(vy) != 2.0 or abs(vx) != 1.0):
            return None
        if kind != "FUEL_EXHAUSTED" and any(s["fuel"] <= 0 for s in steps):
            return None
    n = len(steps)
    # Background dropouts: x, vx, vy anywhere; y only well before the last 21 records.
    for s in steps:
        if rng.random() < 0.04:
            nulls.setdefault(s["step"], []).append(rng.choice(["x", "vx", "vy"]))
        if s["step"] < n - 25 and rng.random() < 0.05:
            nulls.setdefault(s["step"], []).append("y")
    t = n - 1
    answer_step = steps[t]["step"]
    if kind == "SENSOR_DROPOUT":
        if variant == "at_touchdown":
            picks = sorted(set([t] + rng.sample(range(t - 18, t), 2)))
        else:
            picks = sorted(set([t - 19] + rng.sample(range(t - 17, t), rng.choice([2, 3]))))
        for i in picks:
            nulls.setdefault(steps[i]["step"], []).append("y")
        answer_step = steps[picks[0]]["step"]
    elif kind == "HARD_LANDING" and variant == "near_miss":
        # Two in the window and one just before it: not a dropout cause.
        for i in [t - 20] + rng.sample(range(t - 18, t + 1), 2):
            nulls.setdefault(steps[i]["step"], []).append("y")
    elif kind == "FUEL_EXHAUSTED" and variant == "dropouts":
        for i in rng.sample(range(t - 19, t + 1), 4):
            nulls.setdefault(steps[i]["step"], []).append("y")
    if kind == "FUEL_EXHAUSTED":
        answer_step = next(s["step"] for s in steps if r4(s["fuel"]) <= 0)
    # The pad: placed around the touchdown.
    xt = r4(td["x"])
    if kind in ("OK", "HARD_LANDING", "LATERAL_SKID", "FUEL_EXHAUSTED", "SENSOR_DROPOUT"):
        off = rng.uniform(-0.8, 0.8) * plan.hw
    elif kind in ("WIND_DRIFT", "OFF_PAD"):
        w = logged_wind(plan, steps)
        windy = abs(w) >= 0.1 * plan.g
        if plan.wind and abs(w) < 0.15 * plan.g or not plan.wind and abs(w) > 0.05 * plan.g:
            return None
        side = 1 if w > 0 else -1
        if kind == "OFF_PAD" and windy:
            side = -side  # landed upwind of the pad: not drift
        elif kind == "OFF_PAD":
            side = rng.choice([-1, 1])
        # drift = x - pad_x has the sign `side`
        off = side * rng.uniform(1.3, 5.0) * plan.hw
    else:
        off = rng.uniform(-30, 30)
    pad_x = round(xt - off, 2)
    if kind in ("OK", "HARD_LANDING", "LATERAL_SKID", "FUEL_EXHAUSTED", "SENSOR_DROPOUT") and abs(xt - pad_x) > 0.9 * r4(plan.hw):
        return None
    if kind in ("WIND_DRIFT", "OFF_PAD") and abs(xt - pad_x) < 1.2 * r4(plan.hw):
        return None
    if kind == "TIMEOUT":
        answer_step = steps[-1]["step"]
    elif kind == "PILOT_SILENT":
        cut = 0 if variant == "first_step" else rng.randint(30, plan.max_steps - 2)
        steps = steps[:cut]
        answer_step = cut
        nulls = {k: v for k, v in nulls.items() if k < cut}
    with_end = kind not in ("PILOT_SILENT",) and rng.random() < 0.5
    text = render(name, plan, dict(pad_x=pad_x, fuel=fuel0), steps, nulls, with_end, rng, rng.random() < 0.5)
    return text, kind, answer_step


def hover(rng, plan, fuel0):
    """A pilot that holds altitude until max_steps (fuel enough for it)."""
    g, A = plan.g, plan.A
    x, y, vx, vy, out, fuel = rng.uniform(-40, 40), rng.uniform(20, 60), 0.0, 0.0, [], 1e9
    for k in range(plan.max_steps):
        w = plan.wind + rng.gauss(0, plan.gust) * 0.3
        thrust, ang = command_for(-w - 0.5 * vx, g - 0.8 * vy, A)
        fuel -= thrust * DT
        vx += (thrust * A * math.sin(ang) + w) * DT
        vy += (thrust * A * math.cos(ang) - g) * DT
        x += vx * DT
        y += vy * DT
        out.append(dict(step=k, thrust=thrust, angle=ang, x=x, y=y, vx=vx, vy=vy, fuel=fuel0 + fuel - 1e9, wind=w))
    for s in out:
        s["fuel"] = max(s["fuel"], 0.5)
    return out


def build(rng, cases=None, prefix="f"):
    """Files {name.jsonl: bytes} and answers {(flight, cause, step)} of one folder, every case once
    in a shuffled order."""
    cases = list(cases or CASES)
    rng.shuffle(cases)
    files, answers = {}, set()
    for i, (kind, variant) in enumerate(cases):
        name = "%s%02d-%04x" % (prefix, i + 1, rng.randrange(1 << 16))
        for tries in range(400):
            got = one(rng, name, kind, variant)
            if got:
                break
        else:
            raise RuntimeError("no draw for %s/%s" % (kind, variant))
        text, cause, step = got
        files[name + ".jsonl"] = text.encode()
        answers.add((name, cause, str(step)))
    # A file that is not a log.
    files["README.txt"] = b"Flight recorder export. One .jsonl per episode.\n"
    return files, answers
