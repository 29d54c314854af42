"""Seeded station bundles and the expected QC table computed from the canonical observations."""
import math
from datetime import datetime, timezone, timedelta

D0 = datetime(2026, 7, 30, tzinfo=timezone.utc)
UNIT_NAMES = {"C": ["C", "degC", "°C", "celsius"], "F": ["F", "degF", "°F", "Fahrenheit"], "K": ["K", "kelvin"]}
MISS = ["", "NA", "NaN", "-9999", "null", "M", "-999.9", "n/a"]
TIMEK = ["timestamp", "datetime", "obs_time", "date_time"]
TEMPK = ["temperature", "t2m", "air_temp", "tair"]
TZS = [0, 120, -300, 330, 545, -480, 60]


def fmt_off(m, style):
    s = "+" if m >= 0 else "-"
    h, mm = abs(m) // 60, abs(m) % 60
    return ("UTC" if m == 0 else "%s%02d:%02d" % (s, h, mm)) if style == 0 else "%s%02d%02d" % (s, h, mm) if style == 1 else "%s%02d:%02d" % (s, h, mm)


def build(rng, kind):
    nst = rng.randint(2, 3)
    files, canon, clim = {}, {}, []
    for si in range(nst):
        st = "ST%03d" % rng.randint(0, 999)
        while st in canon:
            st = "ST%03d" % rng.randint(0, 999)
        base = rng.uniform(-5, 28)
        if si != nst - 1 or kind == "plain":
            clim.append((st, 7, round(base + rng.uniform(-2, 2), 2)))
            clim.append((st, 8, round(base + rng.uniform(-2, 2), 2)))
        nh = rng.randint(60, 90)
        start = D0 + timedelta(hours=rng.randint(-6, 6))
        truth = []
        for k in range(nh):
            if rng.random() < 0.06:
                continue  # row absent
            t = start + timedelta(hours=k)
            c = base + 6 * math.sin((t.hour - 9) / 24 * 2 * math.pi) + rng.uniform(-0.5, 0.5)
            r = rng.random()
            if r < 0.05:
                c = c + rng.choice([-1, 1]) * rng.uniform(12, 20)
            elif r < 0.08:
                c = rng.choice([rng.uniform(60, 99), rng.uniform(-90, -65)])
            elif r < 0.14:
                c = None
            truth.append((t, c))
        unit = "C" if kind in ("plain", "timezones", "split", "missing") else rng.choice(["F", "K", "F", "K", "C"])
        tzm = 0 if kind != "timezones" else rng.choice(TZS)
        semi = kind == "units" and rng.random() < 0.6
        tk = "time" if kind in ("plain", "units") else rng.choice(TIMEK)
        vk = "temp" if kind in ("plain", "units") else rng.choice(TEMPK)
        obs = canon.setdefault(st, {})
        rows = []
        for t, c in truth:
            if c is None:
                raw = "" if kind == "plain" else rng.choice(MISS)
                val = None
            else:
                v = c if unit == "C" else c * 9 / 5 + 32 if unit == "F" else c + 273.15
                raw = "%.2f" % v if unit == "K" else "%.1f" % v
                val = float(raw)
                val = val if unit == "C" else (val - 32.0) * 5.0 / 9.0 if unit == "F" else val - 273.15
                if semi:
                    raw = raw.replace(".", ",")
            if kind == "timezones":
                r = rng.random()
                if r < 0.6:
                    ts = t.astimezone(timezone(timedelta(minutes=tzm))).strftime("%Y-%m-%dT%H:%M")
                elif r < 0.8:
                    o = rng.choice(TZS)
                    ts = t.astimezone(timezone(timedelta(minutes=o))).isoformat()
                else:
                    ts = t.strftime("%Y-%m-%d %H:%M:%SZ")
                    ts = ts.replace("Z", "Z")
            else:
                ts = t.strftime("%Y-%m-%dT%H:%M:%S") if kind != "split" else t.strftime("%Y-%m-%dT%H:%MZ")
            rows.append((t, ts, raw, val))
            obs[t] = val
        header = "# station: %s\n# units: %s\n" % (st, rng.choice(UNIT_NAMES[unit]) if kind != "plain" else unit)
        if kind == "timezones" or rng.random() < 0.3:
            header += "# tz: %s\n" % fmt_off(tzm, rng.randint(0, 2) if kind == "timezones" else 0)
        if kind == "units" and rng.random() < 0.5:
            header += "# elevation_m: %d\n" % rng.randint(0, 2500)
        d = ";" if semi else ","
        def render(rs):
            q = '"' if semi and rng.random() < 0.3 else ""
            return header + "%s%s%s\n" % (tk, d, vk) + "".join("%s%s%s%s%s\n" % (ts, d, q, raw, q) for _, ts, raw, _ in rs)
        if kind == "split":
            cut1 = rng.randint(len(rows) // 4, len(rows) // 2)
            cut2 = rng.randint(cut1 + 3, len(rows) - 5)
            parts = [rows[: cut1 + rng.randint(1, 4)], rows[cut1:cut2 + 2], rows[cut2:]]
            for j, p in enumerate(parts):
                files["%s_part%d.csv" % (st.lower(), j + 1)] = render(p).encode()
        else:
            files["%s.csv" % st.lower()] = render(rows).encode()
    files["climatology.csv"] = ("station,month,mean_c\n" + "".join("%s,%d,%.2f\n" % c for c in clim)).encode()
    files["notes.txt"] = b"field notes, not data\n"
    return files, qc(canon, {(s, m): v for s, m, v in clim})


def qc(canon, clim):
    out = {}
    for st in sorted(canon):
        days, prev = {}, None
        for t in sorted(canon[st]):
            v = canon[st][t]
            day = days.setdefault(t.date(), [0, 0, 0, 0, []])
            day[0] += 1
            if v is None:
                day[1] += 1
            elif v < -60 or v > 55:
                day[2] += 1
            elif prev is not None and t - prev[0] <= timedelta(hours=3) and abs(v - prev[1]) > 8:
                day[3] += 1
            else:
                day[4].append(v)
                prev = (t, v)
        for dt, (n, miss, rg, sp, vals) in days.items():
            mean = round(sum(vals) / len(vals), 2) if vals else None
            c = clim.get((st, dt.month))
            out[(st, dt.isoformat())] = dict(n_obs=n, n_valid=len(vals), n_missing=miss, n_range=rg, n_spike=sp,
                                             mean_c=mean, min_c=min(vals) if vals else None, max_c=max(vals) if vals else None,
                                             anomaly_c=None if mean is None or c is None else mean - c)
    return out
