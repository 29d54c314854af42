"""Seeded sites, load files, studies and vendor logs for the hidden cases.

Loads and prices are synthesised per local clock hour (a daily shape, weekends, noise, spikes, a
time-of-use price with some off-peak prices exactly at the charging threshold), written at the
precision the file states; every answer is computed from exactly the written text by ref.py.
Vendor logs are simulated by a different (vendor's own) schedule with correct physics, then
anomalies are planted: an over-discharge / over-charge day, charging above the power rating,
discharge into a near-idle site (export), meter balance errors, a day whose SoC bookkeeping uses
the whole round-trip efficiency on charge and none on discharge, and an inflated savings claim.
The instruction's audit rules are applied to the written log (ref.audit_rules) and a case is drawn
again unless every planted kind is found and nothing else is."""
import json
import math
import ref

H = ref.H
ZONES = (("us", -480), ("us", -300), ("us", -360), ("eu", 60), ("eu", 120), (None, 330), (None, 600),
         (None, -180), (None, 345))


def weekday(day):
    return (day + 4) % 7  # 0 = Sunday


def nth_sunday(y, m, n):
    d1 = ref.days_from_civil(y, m, 1)
    return d1 + (7 - weekday(d1)) % 7 + 7 * (n - 1)


def last_sunday(y, m):
    nxt = ref.days_from_civil(y + (m == 12), m % 12 + 1, 1)
    d = nxt - 1
    return d - weekday(d)


def offset_at(t, zone):
    rule, std = zone
    if rule is None:
        return std
    y = ref.civil_from_days(t // 1440)[0]
    if rule == "us":
        on = nth_sunday(y, 3, 2) * 1440 + 120 - std
        off = nth_sunday(y, 11, 1) * 1440 + 120 - (std + 60)
    else:
        on = last_sunday(y, 3) * 1440 + 60
        off = last_sunday(y, 10) * 1440 + 60
    return std + 60 if on <= t < off else std


def local_midnight(y, m, d, zone):
    guess = ref.days_from_civil(y, m, d) * 1440 - zone[1]
    return ref.days_from_civil(y, m, d) * 1440 - offset_at(guess, zone)


def synth(rng, zone, start, days, scale):
    """[(utc start, offset, load kW, price)] on the 15-minute grid from local midnight `start`."""
    t0 = local_midnight(start[0], start[1], start[2], zone)
    n = days * 96
    p_off = round(rng.uniform(0.06, 0.10), 4)
    p_mid = round(rng.uniform(0.12, 0.18), 4)
    p_peak = round(rng.uniform(0.22, 0.38), 4)
    thr = round(p_off + rng.uniform(0.002, 0.01), 4)
    peak_h = rng.uniform(13.0, 17.0)
    width = rng.uniform(3.0, 5.0)
    weekend_cheap = rng.random() < 0.7
    out, walk = [], 0.0
    for i in range(n):
        t = t0 + i * 15
        off = offset_at(t, zone)
        loc = t + off
        h = (loc % 1440) / 60.0
        wd = weekday(loc // 1440)
        shape = 0.45 + 0.55 * math.exp(-((h - peak_h) / width) ** 2)
        if wd in (0, 6):
            shape *= 0.72
        walk = 0.9 * walk + rng.gauss(0, 0.03)
        load = scale * shape * (1.0 + walk + rng.gauss(0, 0.02))
        if rng.random() < 0.004:
            load *= rng.uniform(1.15, 1.35)
        if h < 7 or h >= 22 or (wd in (0, 6) and weekend_cheap):
            price = p_off + round(rng.uniform(-0.01, 0.012), 4)
            if rng.random() < 0.12:
                price = thr
        elif 16 <= h < 21:
            price = p_peak + round(rng.uniform(-0.02, 0.02), 4)
        else:
            price = p_mid + round(rng.uniform(-0.015, 0.015), 4)
        out.append([t, off, max(load, 1.0), round(price, 4)])
    return out, thr


def stamp_for(t, off, label, zone):
    """The written timestamp of the interval starting at UTC minute t (offset off at its start)."""
    if label == "end":
        return ref.stamp_text(t + 15, offset_at(t + 15, zone))
    return ref.stamp_text(t, off)


def written(rows, label, unit, zone):
    """The load file text; the rows' load kW becomes the value the file states (as rounded)."""
    lines = ["# site: hidden", "# interval_minutes: 15", "# timestamp_label: %s" % label,
             "timestamp,%s,price" % ("load_kwh" if unit == "kWh" else "load_kw")]
    for r in rows:
        t, off, load, price = r
        if unit == "kWh":
            v = "%.4f" % (load * H)
            r[2] = float(v) / H
        else:
            v = "%.3f" % load
            r[2] = float(v)
        lines.append("%s,%s,%.4f" % (stamp_for(t, off, label, zone), v, price))
    return "\n".join(lines) + "\n"


def battery_for(rng, peak):
    power = round(peak * rng.uniform(0.08, 0.2), 1)
    cap = round(power * rng.uniform(1.0, 3.0), 1)
    lo = round(rng.uniform(0.05, 0.2), 2)
    hi = round(rng.uniform(0.85, 1.0), 2)
    return {"capacity_kwh": cap, "power_kw": power, "round_trip_efficiency": round(rng.uniform(0.8, 0.95), 3),
            "soc_min": lo, "soc_max": hi, "soc_initial": round(rng.uniform(lo, hi), 2)}


def monthly_targets(rng, rows):
    peak = {}
    for t, off, load, _ in rows:
        m = ref.month_of(t + off)
        peak[m] = max(peak.get(m, 0.0), load)
    return {m: round(p * rng.uniform(0.62, 0.85), 1) for m, p in sorted(peak.items())}


def pick_start(rng, kind):
    if kind == "inputs":
        return rng.choice([((2025, 10, 26), ("us", -480)), ((2025, 10, 27), ("us", -300)),
                           ((2025, 3, 24), ("eu", 60)), ((2025, 10, 22), ("eu", 120)),
                           ((2025, 3, 3), ("us", -360)), ((2025, 6, 25), (None, 345)),
                           ((2025, 8, 26), (None, 600)), ((2025, 4, 25), (None, -180))])
    m = rng.randint(1, 12)
    return (2025, m, rng.randint(18, 26)), rng.choice(ZONES)


def informative(site, text):
    """Every rule the dispatch tests must bind at least once in the case."""
    rows, _ = ref.bill_table(site, ref.series(text))
    b = site["battery"]
    lo = b["soc_min"] * b["capacity_kwh"]
    targets = site["policy"]["demand_target_kw"]
    thr = site["policy"]["charge_price_max"]
    return (sum(r[5] > 0 for r in rows) >= 20 and sum(r[4] > 0 for r in rows) >= 10
            and any(abs(r[7] - lo) < 1e-6 for r in rows)
            and any(abs(r[5] - b["power_kw"]) < 1e-9 for r in rows)
            and any(r[4] > 0 and abs(r[4] - (targets[r[1]] - r[2])) < 1e-9 and r[4] < b["power_kw"] - 1e-9 for r in rows)
            and any(r[3] == thr and r[4] > 0 for r in rows))


def site_case(rng, kind):
    """(files, site, load text) of a dispatch/bill case; drawn again until every rule binds."""
    for _ in range(200):
        start, zone = pick_start(rng, kind)
        days = rng.randint(9, 14)
        scale = round(rng.uniform(80, 700), 1)
        rows, thr = synth(rng, zone, start, days, scale)
        if kind == "inputs":
            label, unit = rng.choice([("end", "kWh"), ("end", "kW"), ("start", "kWh"), ("end", "kWh")])
        elif kind == "bill":
            label, unit = rng.choice(["start", "end"]), rng.choice(["kW", "kWh"])
        else:
            label, unit = "start", "kW"
        text = written(rows, label, unit, zone)
        peak = max(r[2] for r in rows)
        site = {"name": "site-%s-%d" % (kind, rng.randint(100, 999)), "battery": battery_for(rng, peak),
                "tariff": {"demand_charge_per_kw": round(rng.uniform(8, 25), 2)},
                "policy": {"charge_price_max": thr, "demand_target_kw": monthly_targets(rng, rows)},
                "degradation_cost_per_kwh": round(rng.uniform(0.01, 0.06), 3)}
        if informative(site, text):
            return {"site.json": json.dumps(site, indent=1) + "\n", "load.csv": text}, site, text
    raise RuntimeError("no informative %s case in 200 draws" % kind)


def study_case(rng, days=None, start=None, zone=None, sizes=None, label=None, unit=None):
    zone = zone or rng.choice(ZONES)
    start = start or (2025, rng.randint(1, 10), rng.randint(1, 20))
    days = days or rng.randint(40, 55)
    scale = round(rng.uniform(150, 700), 1)
    rows, thr = synth(rng, zone, start, days, scale)
    label, unit = label or rng.choice(["start", "end"]), unit or rng.choice(["kW", "kWh"])
    text = written(rows, label, unit, zone)
    peak = max(r[2] for r in rows)
    if sizes is None:
        sizes = []
        for _ in range(rng.randint(3, 4)):
            p = round(peak * rng.uniform(0.05, 0.25), 0)
            sizes.append({"capacity_kwh": round(p * rng.choice([1, 2, 2.5, 4]), 0), "power_kw": p})
    lo = round(rng.uniform(0.05, 0.15), 2)
    study = {"title": "hidden study", "sizes": sizes,
             "battery": {"round_trip_efficiency": round(rng.uniform(0.82, 0.94), 3), "soc_min": lo,
                         "soc_max": round(rng.uniform(0.88, 1.0), 2), "soc_initial": 0.5},
             "tariff": {"demand_charge_per_kw": round(rng.uniform(8, 25), 2)},
             "charge_price_max": thr, "target_shave_fraction": round(rng.uniform(0.5, 0.95), 2),
             "degradation_cost_per_kwh": round(rng.uniform(0.01, 0.06), 3)}
    return {"study.json": json.dumps(study, indent=1) + "\n", "load.csv": text}, study, text


# ------------------------------------------------------------------ vendor logs

def vendor_log(rng, site, rows, zone, plan):
    """Vendor's schedule with correct physics except where `plan` says; returns (text, planted)."""
    b = site["battery"]
    cap, power = b["capacity_kwh"], b["power_kw"]
    lo, hi = b["soc_min"] * cap, b["soc_max"] * cap
    k = math.sqrt(b["round_trip_efficiency"])
    rte = b["round_trip_efficiency"]
    e = b["soc_initial"] * cap
    label = rng.choice(["start", "end"])
    lines = ["# vendor: hidden", "# interval_minutes: 15", "# timestamp_label: %s" % label,
             "timestamp,charge_kw,discharge_kw,grid_kw,soc_kwh"]
    n = len(rows)
    days = n // 96
    bad_soc_day = rng.randint(1, days - 2) if plan.get("soc") else None
    bad_eff_day = rng.choice([d for d in range(1, days - 1) if d != bad_soc_day]) if plan.get("eff") else None
    power_at = set()
    if plan.get("power"):
        power_at = {rng.randint(96, n - 97) for _ in range(rng.randint(1, 3))}
    export_at = set(plan.get("export_at", ()))
    balance_at = set()
    if plan.get("balance"):
        balance_at = {rng.randint(0, n - 1) for _ in range(rng.randint(1, 3))}
    d_rate = rng.uniform(0.5, 1.0)
    c_rate = rng.uniform(0.3, 0.9)
    start_h = rng.choice([15, 16, 17])
    planted = set()
    for i, (t, off, load, price) in enumerate(rows):
        loc = t + off
        h = (loc % 1440) / 60.0
        day = i // 96
        wlo, whi = lo, hi
        if day == bad_soc_day:
            wlo, whi = lo - rng.uniform(0.03, 0.08) * cap, hi + rng.uniform(0.02, 0.05) * cap
        c = d = 0.0
        if i in export_at:
            d = min(power * 0.6, max(e - lo, 0.0) * k / H)
            if d > load + 1.0:
                planted.add("EXPORT")
        elif start_h <= h < start_h + 4:
            d = min(power * d_rate, max(e - wlo, 0.0) * k / H, load)
        elif h < 6 or (day == bad_soc_day and h >= 22):
            c = min(power * c_rate, max(whi - e, 0.0) / (k * H))
        if i in power_at:
            want = power * rng.uniform(1.05, 1.2)
            if e + want * H * k < hi - 0.5 and d == 0:
                c = want
                planted.add("POWER_LIMIT")
        c, d = round(c, 4), round(d, 4)
        if day == bad_eff_day:
            nxt = e + c * H * rte - d * H
            if max(c, d) >= 8.0:
                planted.add("EFFICIENCY")
        else:
            nxt = e + c * H * k - d * H / k
        e = round(nxt, 4)
        if e < lo - 0.01 or e > hi + 0.01:
            planted.add("SOC_RANGE")
        g = load - d + c
        if i in balance_at:
            g += rng.choice([-1, 1]) * rng.uniform(1.0, 20.0)
            planted.add("BALANCE")
        lines.append("%s,%.4f,%.4f,%.4f,%.4f" % (stamp_for(t, off, label, zone), c, d, g, e))
    return "\n".join(lines) + "\n", planted


def audit_case(rng, kind="audit", start=None, zone=None, label=None, unit=None):
    for _ in range(50):
        st, zn = pick_start(rng, "inputs" if rng.random() < 0.5 else "dispatch")
        st, zn = start or st, zone or zn
        days = rng.randint(9, 13)
        scale = round(rng.uniform(80, 600), 1)
        rows, thr = synth(rng, zn, st, days, scale)
        peak = max(r[2] for r in rows)
        bat = battery_for(rng, peak)
        # a near-idle stretch (site shut down) where a discharging vendor exports
        exp_day = rng.randint(2, days - 2)
        first = exp_day * 96 + rng.randint(0, 60)
        export_at = list(range(first, first + rng.randint(1, 3)))
        for i in export_at:
            rows[i][2] = bat["power_kw"] * rng.uniform(0.1, 0.3)
        lb = label or rng.choice(["start", "end"])
        un = unit or rng.choice(["kW", "kWh"])
        text = written(rows, lb, un, zn)
        site = {"name": "site-audit-%d" % rng.randint(100, 999), "battery": bat,
                "tariff": {"demand_charge_per_kw": round(rng.uniform(8, 25), 2)},
                "policy": {"charge_price_max": thr, "demand_target_kw": monthly_targets(rng, rows)},
                "degradation_cost_per_kwh": round(rng.uniform(0.01, 0.06), 3)}
        plan = {"soc": rng.random() < 0.8, "eff": rng.random() < 0.8, "power": rng.random() < 0.7,
                "balance": rng.random() < 0.7, "export_at": export_at if rng.random() < 0.8 else ()}
        log_text, planted = vendor_log(rng, site, rows, zn, plan)
        ser = ref.series(text)
        log = ref.log_rows(log_text)
        rate = site["tariff"]["demand_charge_per_kw"]
        base = ref.fold_bills([(r[1], r[3], r[2]) for r in ser], rate)
        withb = ref.fold_bills([(r[1], r[3], max(log[r[0]]["grid_kw"], 0.0)) for r in ser], rate)
        claims = []
        bad_month = rng.choice(sorted(base)) if rng.random() < 0.75 else None
        for m in sorted(base):
            true = (base[m][0] + base[m][2]) - (withb[m][0] + withb[m][2])
            if m == bad_month:
                true = true * rng.uniform(1.05, 1.3) + rng.uniform(20, 200)
                planted.add("CLAIM")
            claims.append((m, round(true, 2)))
        claims_text = "month,claimed_savings\n" + "".join("%s,%.2f\n" % c for c in claims)
        found = ref.audit_rules(site, ser, log, claims)
        codes = {c for _, c, _ in found}
        if codes == planted and len(planted) >= 3:
            files = {"site.json": json.dumps(site, indent=1) + "\n", "load.csv": text,
                     "vendor_log.csv": log_text, "vendor_claims.csv": claims_text}
            return files, site, found
    raise RuntimeError("no audit case matched its plan in 50 draws")
