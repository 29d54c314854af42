"""Builds wind-farm site folders (site.json + SCADA exports) from a planted truth: per-interval wind,
weather and turbine state in UTC, a planted power curve, planted events (curtailment, faults,
maintenance, icing, a frozen anemometer, missing cells and rows). Writes each turbine's export in
its vendor format (ACME: UTC period-start; BORA: local period-end labels under EU summer time,
kW or MW) and returns the records exactly as written for ref.py."""
import calendar
import csv
import io
import json
import math
from datetime import datetime, timedelta, timezone

import ref

Z = timezone.utc
TEN = timedelta(minutes=10)
EPOCH = datetime(2000, 1, 1, tzinfo=Z)


_SWITCH = {}


def eu_summer(instant):
    """Is EU summer time in force at this UTC instant? (last Sundays of March and October, 01:00 UTC)"""
    y = instant.year
    if y not in _SWITCH:
        def last_sun(month):
            day = max(w[calendar.SUNDAY] for w in calendar.monthcalendar(y, month))
            return datetime(y, month, day, 1, tzinfo=Z)
        _SWITCH[y] = (last_sun(3), last_sun(10))
    a, b = _SWITCH[y]
    return a <= instant < b


def local_offset(site, instant):
    off = site["utc_offset_min"]
    if site["dst"] == "eu" and eu_summer(instant):
        off += 60
    return off


def true_power(v, tb):
    ci, vr, rated, co = tb["_ci"], tb["_vr"], tb["rated_kw"], tb["cut_out_ms"]
    if v < ci or v > co:
        return 0.0
    if v >= vr:
        return rated
    return rated * (v ** 3 - ci ** 3) / (vr ** 3 - ci ** 3)


def fnum(x, d):
    return float("%.*f" % (d, x))


def simulate(rng, site, tb, start, n, opts):
    """Truth records (dicts) for n intervals from start, before missing values are planted."""
    recs = []
    v = rng.uniform(4, 10)
    target = rng.uniform(3, 16)
    base_t = opts["temp_base"]
    pres0 = opts["pres_base"]
    hub, sensor = float(tb["hub_height_m"]), float(tb["sensor_height_m"])
    event = None
    for i in range(n):
        s = start + i * TEN
        if i % 30 == 0:
            target = rng.uniform(2, opts.get("vmax", 19))
        v = min(28.0, max(0.2, v + 0.1 * (target - v) + rng.gauss(0, 0.55)))
        hour = s.hour + s.minute / 60.0
        temp = base_t + 4.0 * math.sin((hour - 9) / 24.0 * 2 * math.pi) + rng.gauss(0, 0.3)
        pres = pres0 + 6.0 * math.sin(i / 500.0) + rng.gauss(0, 0.2)
        rh = min(100.0, max(20.0, opts["rh_base"] + 15 * math.sin(i / 90.0) + rng.gauss(0, 3)))
        rec = {"start": s, "ws": fnum(v, 2), "temp": fnum(temp, 1), "pres": fnum(pres, 1), "rh": fnum(rh, 0),
               "status": rng.choice([0, 0, 0, 0, 0, 3, 12]) if opts.get("warn") else 0}
        vn = ref.normalised_speed(rec, hub, sensor)
        p = true_power(vn, tb)
        if vn > tb["cut_out_ms"]:
            rec["status"] = 402
        if event is None and rng.random() < opts["event_rate"]:
            kind = rng.choice(opts["events"])
            event = [kind, rng.randint(3, 18), rng.randint(0, 40)]
        if event is not None:
            kind = event[0]
            if kind == "curt":
                rec["status"] = 100 + event[2]
                p = min(p, tb["rated_kw"] * 0.4)
            elif kind == "fault":
                rec["status"] = 200 + event[2]
                p = -rng.uniform(0, 4)
            elif kind == "maint":
                rec["status"] = 300 + event[2] % 20
                p = 0.0
            elif kind == "ice":
                rec["temp"] = fnum(rng.uniform(-4, 1.9), 1)
                rec["rh"] = fnum(rng.uniform(85, 100), 0)
                p = p * 0.6
            elif kind == "colddry":
                rec["temp"] = fnum(rng.uniform(-4, 2.0), 1)
                rec["rh"] = fnum(rng.uniform(50, 84), 0)
            event[1] -= 1
            if event[1] <= 0:
                event = None
        if rec["status"] in (0, 3, 12) and vn < tb["_ci"]:
            p = -rng.uniform(0, 3)
        noise = rng.gauss(0, 0.015 * tb["rated_kw"]) if p > 0 else 0.0
        rec["power"] = fnum(min(tb["rated_kw"] * 1.03, p + noise), 1)
        recs.append(rec)
    return recs


def freeze(rng, recs, count, lengths=(2, 3, 3, 4, 6)):
    """Frozen anemometer: the speed repeats for a few intervals while the turbine follows the real wind."""
    for _ in range(count):
        i = rng.randint(5, len(recs) - 10)
        L = rng.choice(lengths)
        for j in range(i + 1, i + L):
            recs[j]["ws"] = recs[i]["ws"]
        if i + L < len(recs) and recs[i + L]["ws"] == recs[i]["ws"]:
            recs[i + L]["ws"] = fnum(recs[i + L]["ws"] + 0.07, 2)
        if i > 0 and recs[i - 1]["ws"] == recs[i]["ws"]:
            recs[i - 1]["ws"] = fnum(recs[i - 1]["ws"] + 0.05, 2)


def write_acme(rows, rng, shuffle):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["timestamp", "ws_avg", "power_avg", "temp_c", "pressure_hpa", "rh_pct", "status"])
    body = []
    for r in rows:
        def cell(k, d):
            if r[k] is None:
                return rng.choice(["", "NaN", "nan"])
            return "%d" % r[k] if d is None else "%.*f" % (d, r[k])
        body.append([r["start"].strftime("%Y-%m-%dT%H:%M:%SZ"), cell("ws", 2), cell("power", 1), cell("temp", 1),
                     cell("pres", 1), cell("rh", 0), cell("status", None)])
    if shuffle:
        rng.shuffle(body)
    w.writerows(body)
    return out.getvalue().encode()


def write_bora(rows, rng, site, unit):
    lines = ["# BORA WTG export v3", "# unit_power=%s" % unit, "# site=%s" % site["farm"],
             "time_end;wind;p_act;t_amb;p_amb;hum;state"]
    for r in rows:
        def cell(k, d):
            if r[k] is None:
                return rng.choice(["-999", "n/a", "", "-999.0"])
            if k == "power" and unit == "MW":
                return "%.4f" % (r[k] / 1000.0)
            return "%d" % r[k] if d is None else "%.*f" % (d, r[k])
        end = r["start"] + TEN + timedelta(minutes=local_offset(site, r["start"]))
        lines.append(";".join([end.strftime("%d.%m.%Y %H:%M"), cell("ws", 2), cell("power", 1), cell("temp", 1),
                               cell("pres", 1), cell("rh", 0), cell("status", None)]))
    return ("\n".join(lines) + "\n").encode()


def blank_cells(rng, recs, count):
    for _ in range(count):
        r = rng.choice(recs)
        r[rng.choice(["ws", "power", "temp", "pres", "rh", "status"])] = None


def drop_rows(rng, recs, count):
    for _ in range(count):
        del recs[rng.randint(1, len(recs) - 2)]


KINDS = {
    # period start (UTC), days, formats, options
    "example": dict(events=["curt", "fault", "maint"], stuck=0, ice=False, units=["kW"], dst=["none"], gaps=0),
    "readers": dict(events=["curt", "fault", "maint"], stuck=0, ice=False, units=["kW", "MW"], dst=["eu"], gaps=0,
                    fallback=True, blanks=25, drops=6, shuffle=True),
    "filters": dict(events=["curt", "fault", "maint", "ice", "colddry", "curt", "ice"], stuck=8, ice=True, units=["kW"],
                    dst=["none", "eu"], gaps=0, blanks=20, drops=4, warn=True),
    "curve": dict(events=["curt", "fault"], stuck=0, ice=False, units=["kW"], dst=["none"], gaps=2),
    "aep": dict(events=["curt", "fault", "maint"], stuck=0, ice=False, units=["kW"], dst=["none"], gaps=0, weibull=True),
    "mixed": dict(events=["curt", "fault", "maint", "ice", "colddry"], stuck=4, ice=True, units=["kW", "MW"], dst=["eu"],
                  gaps=1, blanks=10, drops=3, fallback=True, weibull=True),
}


def plant_gaps(rng, site, tb, series, count):
    """Takes the records of chosen mid-range bins out of the curve (curtailed): one lone bin (filled by
    the gap rule) and, for count >= 2, a pair of adjacent bins (the curve ends below them)."""
    used = ref.used_records(series, float(tb["hub_height_m"]), float(tb["sensor_height_m"]))
    tab = ref.bin_table(used)
    good = sorted(b for b in tab if tab[b][0] >= 3)
    if len(good) < 12:
        return
    picks = [rng.choice(good[3:len(good) // 2])]
    if count >= 2:
        b = rng.choice(good[len(good) // 2 + 1:-2])
        picks += [b, b + 1]
    left = {b: rng.randint(0, 2) for b in picks}
    by_start = {r["start"]: r for r in series}
    for r in used:
        b = ref.bin_index(r["vn"])
        if b in left:
            if left[b] > 0:
                left[b] -= 1
                continue
            by_start[r["start"]]["status"] = 110


def build(rng, kind, start=None, days=None, turbines=None, farm=None):
    o = KINDS[kind]
    site_days = days or rng.randint(10, 14)
    if start is None:
        if o.get("fallback"):
            # the period contains the last Sunday of October
            year = rng.randint(2021, 2026)
            fb = max(w[calendar.SUNDAY] for w in calendar.monthcalendar(year, 10))
            start = datetime(year, 10, fb, tzinfo=Z) - timedelta(days=rng.randint(3, site_days - 3))
        else:
            start = datetime(rng.randint(2021, 2026), rng.randint(1, 12), rng.randint(1, 28), tzinfo=Z)
    end = start + timedelta(days=site_days)
    nt = turbines or (rng.randint(2, 3) if kind == "readers" else 2)
    if o.get("weibull") and (kind == "aep" or rng.random() < 0.7):
        aep_spec = {"distribution": "weibull", "k": round(rng.uniform(1.6, 2.8), 2), "mean_ms": round(rng.uniform(6.0, 9.5), 2)}
    else:
        aep_spec = {"distribution": "rayleigh", "mean_ms": round(rng.uniform(6.0, 9.5), 2)}
    dst = rng.choice(o["dst"])
    site = {"farm": farm or "Farm-%d" % rng.randint(100, 999), "utc_offset_min": rng.choice([0, 60, 60, 120]),
            "dst": dst, "period": {"start": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "end": end.strftime("%Y-%m-%dT%H:%M:%SZ")},
            "aep": aep_spec, "turbines": []}
    files = {}
    series_by = {}
    for ti in range(nt):
        tid = "T%02d" % (ti + 1)
        fmt = "bora" if (dst == "eu" or kind == "readers") and (ti % 2 == 0 or kind == "readers") else "acme"
        if kind == "example":
            fmt = ["acme", "bora"][ti % 2]
        rated = rng.choice([1500, 2000, 2300, 3000, 3600])
        hub = rng.choice([80, 90, 100, 105, 120])
        sensor = rng.choice([2, 5, 10, hub - 5])
        tb = {"id": tid, "file": "scada/%s.%s" % (tid, "csv" if fmt == "acme" else "txt"), "format": fmt,
              "hub_height_m": hub, "sensor_height_m": sensor, "rated_kw": rated,
              "cut_out_ms": rng.choice([20.0, 22.0, 25.0, 25.0])}
        tb["_ci"] = rng.choice([2.5, 3.0, 3.5])
        tb["_vr"] = rng.choice([11.0, 11.5, 12.0, 13.0])
        opts = {"temp_base": rng.uniform(-1, 6) if o["ice"] else rng.uniform(6, 22),
                "pres_base": rng.uniform(900, 1025) if kind == "curve" else rng.uniform(985, 1025),
                "rh_base": rng.uniform(70, 85) if o["ice"] else rng.uniform(45, 70),
                "event_rate": 0.012, "events": o["events"], "warn": o.get("warn")}
        lead, tail = rng.randint(1, 4), rng.randint(1, 4)
        n = site_days * 144 + lead + tail
        recs = simulate(rng, site, tb, start - lead * TEN, n, opts)
        freeze(rng, recs, o["stuck"])
        drop_rows(rng, recs, o.get("drops", 0))
        blank_cells(rng, recs, o.get("blanks", 0))
        for r in recs:
            r["slot"] = int((r["start"] - EPOCH).total_seconds()) // 600
            r["month"] = "%04d-%02d" % (r["start"].year, r["start"].month)
        series = [r for r in recs if start <= r["start"] < end]
        if o["gaps"]:
            plant_gaps(rng, site, tb, series, o["gaps"])
        unit = rng.choice(o["units"]) if fmt == "bora" else "kW"
        if fmt == "acme":
            files[tb["file"]] = write_acme(recs, rng, o.get("shuffle", False))
        else:
            files[tb["file"]] = write_bora(recs, rng, site, unit)
        series_by[tid] = series
        site["turbines"].append({k: v for k, v in tb.items() if not k.startswith("_")})
    files["site.json"] = (json.dumps(site, indent=2) + "\n").encode()
    return files, site, series_by


# ---------------------------------------------------------------- claims (audit)

DEC = {"availability_pct": 3, "energy_mwh": 3, "curve_power_kw": 2, "aep_mwh": 2}


def close(a, b, d):
    return a is not None and b is not None and abs(a - b) <= 0.5 * 10 ** -d + 1e-9


def claims(rng, site, series_by, want, wrong_rate=0.5):
    """An operator's claims with planted errors; returns (csv bytes, {(claim_id, reason, corrected)})."""
    rows, findings = [], set()
    cid = 0
    for t in site["turbines"]:
        tid = t["id"]
        series = series_by[tid]
        base = ref.month_tally(series)
        alt_c = ref.month_tally(series, ("fault", "curt"))
        alt_m = ref.month_tally(series, ("fault", "maint"))
        used = ref.used_records(series, float(t["hub_height_m"]), float(t["sensor_height_m"]))
        raw = ref.bin_table(used, key="ws")
        items = []
        for m in sorted(base):
            items.append(("availability_pct", m, "", want["monthly"][(tid, m)][5],
                          {"CURTAILMENT_AS_FAULT": ref.pct(alt_c[m][2], alt_c[m][3]),
                           "MAINTENANCE_AS_FAULT": ref.pct(alt_m[m][2], alt_m[m][3])}))
            items.append(("energy_mwh", m, "", want["monthly"][(tid, m)][2], {}))
        cbins = sorted(b for (x, b) in want["curve"] if x == tid)
        for b in rng.sample(cbins, min(4, len(cbins))):
            rawp = raw[b][2] if b in raw else None
            items.append(("curve_power_kw", "", b, want["curve"][(tid, b)][2], {"UNNORMALISED_CURVE": rawp}))
        if cbins and rng.random() < 0.5:
            items.append(("curve_power_kw", "", cbins[-1] + 3, None, {}))
        items.append(("aep_mwh", "", "", want["summary"][tid][2], {}))
        for metric, month, b, correct, alts in items:
            d = DEC[metric]
            cid += 1
            claim_id = "C%03d" % cid
            generic = {"availability_pct": "WRONG_AVAILABILITY", "energy_mwh": "ENERGY_MISMATCH",
                       "curve_power_kw": "WRONG_CURVE", "aep_mwh": "AEP_MISMATCH"}[metric]
            options = [k for k, v in alts.items() if v is not None and correct is not None and abs(v - correct) > 3 * 10 ** -d]
            if correct is None:
                value = rng.uniform(100, 2000)
            elif rng.random() < wrong_rate:
                pick = rng.choice(options + [generic]) if options else generic
                if pick == generic:
                    for _ in range(50):
                        step = rng.choice([-1, 1]) * rng.uniform(0.02, 0.08) * max(abs(correct), 5.0)
                        value = correct + step
                        if metric == "availability_pct" and not 0 <= value <= 100:
                            continue
                        if not any(close(value, v, d) for v in alts.values()):
                            break
                else:
                    value = alts[pick]
            else:
                value = correct
            text = "%.*f" % (d, value)
            v = float(text)
            rows.append([claim_id, tid, month, metric, "" if b == "" else "%.1f" % (b * 0.5), text])
            if close(v, correct, d):
                continue
            reason = generic
            for code in ("CURTAILMENT_AS_FAULT", "MAINTENANCE_AS_FAULT", "UNNORMALISED_CURVE"):
                if code in alts and close(v, alts[code], d):
                    reason = code
                    break
            findings.add((claim_id, reason, "" if correct is None else "%.*f" % (d, correct)))
    order = list(range(len(rows)))
    rng.shuffle(order)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["claim_id", "turbine", "month", "metric", "bin", "value"])
    w.writerows(rows[i] for i in order)
    return out.getvalue().encode(), findings
