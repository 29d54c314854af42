"""Audit of a metered AC log against the expected output, day by day."""
from datetime import timedelta

from .weather import parse_stamp, parse_value, read_table

OUTAGE_MIN = 0.05      # x ac_limit_kw x 1 h: an hour expected to produce at least this much
PRODUCING = 0.02       # x ac_limit_kw x 1 h: first/last producing hour
CURTAIL_TOL = 1.005    # metered <= limit x this within an order
CLIP_SHARE = 0.01      # clipped energy >= this share of the day's expected energy
SOILING_RATIO = 0.97   # daily PR below this x the reference PR
REF_DAYS = 14


def load_meter(path):
    meta, header, table = read_table(path)
    label = meta.get("timestamp_label", "end").lower()
    shift = timedelta(hours=1) if label == "end" else timedelta(0)
    out = {}
    for rec in table:
        if not rec or not rec[0].strip():
            continue
        v = dict(zip(header, rec))
        val = parse_value(v.get("ac_kwh"))
        if val is not None:
            out[parse_stamp(v["timestamp"]) - shift] = val
    return out


def load_orders(path):
    try:
        meta, header, table = read_table(path)
    except FileNotFoundError:
        return []
    out = []
    for rec in table:
        if not rec or not rec[0].strip():
            continue
        v = dict(zip(header, rec))
        out.append((parse_stamp(v["start"]), parse_stamp(v["end"]), float(v["limit_kw"])))
    return out


def hourly(ivs, step_min):
    per = 60 // step_min
    acc = {}
    for iv in ivs:
        h = iv.start.replace(minute=0)
        e = acc.setdefault(h, [0, 0.0, 0.0, False])
        e[0] += 1
        if iv.status == "missing":
            e[3] = True
        else:
            e[1] += iv.ac_kwh
            e[2] += iv.clipped_kwh
    return {h: (e[1], e[2]) for h, e in acc.items() if e[0] == per and not e[3]}


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def first_last(series, threshold):
    idx = [i for i, v in enumerate(series) if v >= threshold]
    return (idx[0], idx[-1]) if idx else None


def audit(plant, ivs, step_min, meter, orders):
    exp = hourly(ivs, step_min)
    p = plant.ac_limit_kw
    days = sorted({h.date() for h in meter})
    if not days:
        return []
    rows, clean = [], []
    for day in days:
        hours = [parse_stamp(day.strftime("%Y-%m-%d") + " 00:00") + timedelta(hours=k) for k in range(24)]
        if not all(h in exp and h in meter for h in hours):
            continue
        e = [exp[h][0] for h in hours]
        m = [meter[h] for h in hours]
        clip = sum(exp[h][1] for h in hours)
        total = sum(e)
        if total > 0 and clip >= CLIP_SHARE * total:
            rows.append((day, "clipping_loss", clip))
        lost = sum(e[k] for k in range(24) if e[k] >= OUTAGE_MIN * p and m[k] <= 0.0005)
        if any(e[k] >= OUTAGE_MIN * p and m[k] <= 0.0005 for k in range(24)):
            rows.append((day, "outage", lost))
            continue
        cut = 0.0
        hit = False
        for k, h in enumerate(hours):
            for a, b, lim in orders:
                if a <= h and h + timedelta(hours=1) <= b and e[k] > lim and m[k] <= lim * CURTAIL_TOL:
                    hit = True
                    cut += e[k] - m[k]
                    break
        if hit:
            rows.append((day, "curtailment", cut))
            continue
        fe, fm = first_last(e, PRODUCING * p), first_last(m, PRODUCING * p)
        if fe and fm and fm[0] - fe[0] == fm[1] - fe[1] != 0:
            rows.append((day, "meter_timestamp_shift", fm[0] - fe[0]))
            continue
        if total > 0:
            clean.append((day, total, sum(m)))
    ref = [mt / et for day, et, mt in clean if (day - days[0]).days < REF_DAYS]
    if ref:
        pr_ref = median(ref)
        for day, et, mt in clean:
            if mt / et < SOILING_RATIO * pr_ref:
                rows.append((day, "soiling_drift", et * pr_ref - mt))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [(d.strftime("%Y-%m-%d"), c, v) for d, c, v in rows]
