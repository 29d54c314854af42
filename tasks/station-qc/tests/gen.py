"""Plans a network month by construction and renders it as logger files.

Every observation is planned first: its UTC instant, its true value in tenths of a degree Celsius
(or a missing token) and the flag the spec gives it. Events (spikes, a jump after a three-hour
gap, stuck runs, climatology and range outliers) are placed with margins that make their planned
flag the only possible one, and the smooth base series between them moves at most 1.0 C an hour,
never repeats a value from one hour to the next and stays well inside the climatology band. Only
then are the files written (units, delimiters, decimal commas, column names, clocks, file splits).
The expected daily table, flag summary and audit findings are read off the plan, never computed by
running QC over the files."""
import math
from datetime import date, timedelta
from fractions import Fraction

DAY = 86400
HOUR = 3600
TIME_NAMES = ["time", "Time", "TIMESTAMP", "timestamp", "DateTime", "obs_time", "Obs_Time", "date_time"]
TEMP_NAMES = ["temp", "Temp", "temperature", "T2M", "t2m", "air_temp", "Air_Temp", "TAIR", "tair"]
C_SPELL = ["C", "degC", "\u00b0C", "celsius", "Deg C"]
F_SPELL = ["F", "degF", "\u00b0F", "Fahrenheit", "Deg F"]
K_SPELL = ["K", "kelvin", "Kelvin"]
TOKENS = ["", "NA", "n/a", "N/A", "NaN", "nan", "null", "NULL", "M", "-9999"]
ALL_FEATURES = {
    # readers
    "units_f", "units_k", "semicolon", "toa5", "dup", "tz_pos", "tz_neg_half", "rowzone", "sentinel", "absent",
    # qc events
    "spike", "gap3", "run6", "run5", "clim_warm", "clim_cold", "range",
    # daily
    "day_patterns", "noclim",
}
MODES = {
    "readers": {"units_f", "units_k", "semicolon", "toa5", "dup", "tz_pos", "tz_neg_half", "rowzone", "sentinel", "absent"},
    "qc": {"spike", "gap3", "run6", "run5", "clim_warm", "clim_cold", "range"},
    "daily": {"day_patterns", "noclim", "range"},
    "full": set(ALL_FEATURES),
    "example": {"units_f", "units_k", "semicolon", "toa5", "dup", "tz_pos", "rowzone", "absent", "spike", "noclim"},
}
DAILY_COLUMNS = ["station", "date", "n_obs", "n_valid", "n_missing", "n_range", "n_clim",
                 "n_persist", "n_spike", "complete", "mean_c", "min_c", "max_c", "anomaly_c"]
SUMMARY_COLUMNS = ["station", "n_obs", "n_valid", "n_missing", "n_range", "n_clim", "n_persist",
                   "n_spike", "days", "complete_days", "monthly_mean_c"]
FLAG_COLUMN = {"V": "n_valid", "M": "n_missing", "R": "n_range", "C": "n_clim", "P": "n_persist", "S": "n_spike"}


def hundredths(h):
    """An integer number of hundredths as text with two decimals."""
    sign = "-" if h < 0 else ""
    h = abs(h)
    return "%s%d.%02d" % (sign, h // 100, h % 100)


def dec2(x):
    """A Fraction (or None) rounded half away from zero to two decimals, as text."""
    if x is None:
        return ""
    h = abs(x) * 100
    q = int(h + Fraction(1, 2))
    return hundredths(q if x >= 0 else -q)


def epoch_of(d):
    return (d - date(1970, 1, 1)).days * DAY


def stamp(sec, style):
    days, rest = divmod(sec, DAY)
    d = date(1970, 1, 1) + timedelta(days=days)
    hh, rest = divmod(rest, HOUR)
    mm, ss = divmod(rest, 60)
    sep = "T" if style % 2 == 0 else " "
    if style >= 2:
        return "%s%s%02d:%02d" % (d.isoformat(), sep, hh, mm)
    return "%s%s%02d:%02d:%02d" % (d.isoformat(), sep, hh, mm, ss)


def zone_text(minutes, colon=True):
    sign = "-" if minutes < 0 else "+"
    m = abs(minutes)
    return "%s%02d%s%02d" % (sign, m // 60, ":" if colon else "", m % 60)


# ---------------------------------------------------------------- planning


def plan_station(rng, feats, sid, first, ndays, clim_mean, clim_sd, role):
    """-> list of [utc_seconds, tenths or None, flag, token] sorted by time (absent hours left out)."""
    n = ndays * 24
    t0 = epoch_of(first)
    amp = rng.uniform(1.5, 2.8)
    phase = rng.uniform(0, 24)
    level = clim_mean + rng.uniform(-1.0, 1.0)
    swing, period, phase2 = rng.uniform(0.5, 2.0), rng.uniform(100, 160), rng.uniform(0, 160)
    base = []
    for k in range(n):
        slow = swing * math.sin(2 * math.pi * (k - phase2) / period)
        v = int(round((level + slow + amp * math.sin(2 * math.pi * (k - phase) / 24)) * 10))
        if base and v == base[-1]:
            v += 1 if (k % 2) else -1
        base.append(v)
    m10 = int(round(clim_mean * 10))
    obs = [[t0 + k * HOUR, base[k], "V", None] for k in range(n)]
    busy = [False] * n

    def toward_mean(k, off10):
        return base[k] - off10 if base[k] >= m10 else base[k] + off10

    events = []
    if "spike" in feats:
        events.append("spike")
    if "gap3" in feats:
        events.append("gap3")
    if "run6" in feats:
        events.append("run6")
    if "run5" in feats:
        events.append("run5")
    if "clim_warm" in feats and clim_sd is not None:
        events.append("clim_warm")
    if "clim_cold" in feats and clim_sd is not None:
        events.append("clim_cold")
    if "range" in feats:
        events.append("range")
    events = [events[i] for i in rng.sample(range(len(events)), len(events))]
    # repeat the list over long periods: one event every ~11 hours
    slots = list(range(5, n - 10, 11))
    placed = [(slots[i], events[i % len(events)]) for i in range(len(slots))] if events else []
    if events and len(slots) < len(events):
        raise ValueError("period too short for the events")
    for start, kind in placed:
        k = start + rng.randint(0, 2)
        if kind == "spike":
            obs[k][1] = toward_mean(k, rng.randint(110, 130))
            obs[k][2] = "S"
            span = (k - 1, k + 1)
        elif kind == "gap3":
            for j in (k + 1, k + 2):
                obs[j][1] = None
                obs[j][2] = "M"
                obs[j][3] = "absent" if rng.random() < 0.5 else None
            obs[k + 3][1] = toward_mean(k + 3, rng.randint(115, 125))
            obs[k + 3][2] = "S"
            span = (k, k + 4)
        elif kind in ("run6", "run5"):
            length = 5 if kind == "run5" else rng.choice([6, 7])
            for j in range(length):
                obs[k + j][1] = base[k]
                obs[k + j][2] = "P" if j >= 5 else "V"
            if base[k + length] == base[k]:
                obs[k + length][1] = base[k] + 2
            span = (k, k + length)
        elif kind == "clim_warm":
            obs[k][1] = int(round((clim_mean + 4 * clim_sd) * 10)) + rng.randint(10, 30)
            obs[k][2] = "C"
            span = (k - 1, k + 1)
        elif kind == "clim_cold":
            obs[k][1] = int(round((clim_mean - 4 * clim_sd) * 10)) - rng.randint(10, 30)
            obs[k][2] = "C"
            span = (k - 1, k + 1)
        else:  # range
            obs[k][1] = rng.choice([999, 1000, -888, 650, 701, -700, -612])
            obs[k][2] = "R"
            span = (k - 1, k + 1)
        for j in range(max(0, span[0] - 1), min(n, span[1] + 2)):
            busy[j] = True
    free = [k for k in range(n) if not busy[k]]
    # random missing tokens and absent hours in free slots
    nmiss = rng.randint(2, 4) + (2 if "sentinel" in feats else 0)
    for k in rng.sample(free, min(nmiss, len(free))):
        obs[k][1] = None
        obs[k][2] = "M"
        busy[k] = True
    if "sentinel" in feats:
        marked = [k for k in range(n) if obs[k][2] == "M" and obs[k][3] is None]
        for k in marked[:2]:
            obs[k][3] = "-999.9"
    if "absent" in feats:
        free = [k for k in range(n) if not busy[k]]
        for k in rng.sample(free, min(2, len(free))):
            obs[k][3] = "absent"
            busy[k] = True
    if "day_patterns" in feats:
        day_pattern(rng, obs, busy, ndays)
    return [o for o in obs if o[3] != "absent"]


def day_pattern(rng, obs, busy, ndays):
    """One day with exactly 18 valid of 24 (complete), one with 17 of 24 (not complete), one with
    fewer than 18 rows at all; a range outlier on the complete day."""
    days = rng.sample(range(ndays), 3)
    kinds = ["v18", "v17", "short"]
    for d, kind in zip(days, kinds):
        ks = list(range(d * 24, d * 24 + 24))
        valid_now = [k for k in ks if obs[k][2] == "V" and obs[k][3] != "absent" and not busy[k]]
        held = sum(1 for k in ks if obs[k][2] == "V" and obs[k][3] != "absent" and busy[k])
        if kind == "short":
            drop = rng.sample(valid_now, min(len(valid_now), max(0, len(valid_now) + held - rng.randint(12, 16))))
            for k in drop:
                obs[k][3] = "absent"
            continue
        target = 18 if kind == "v18" else 17
        extra = len(valid_now) + held - target
        if extra < 0 or extra > len(valid_now):
            continue
        pick = rng.sample(valid_now, extra)
        for i, k in enumerate(pick):
            if i == 0 and kind == "v18":
                obs[k][1] = rng.choice([999, -888, 612])
                obs[k][2] = "R"
            else:
                obs[k][1] = None
                obs[k][2] = "M"


# ---------------------------------------------------------------- truth


def truth_tables(plans, clim, month):
    """Daily rows and summary rows (exact Fractions) read off the plan."""
    daily = {}
    summary = {}
    for sid, obs in plans.items():
        per = {}
        for t, v, flag, _ in obs:
            d = (date(1970, 1, 1) + timedelta(days=t // DAY)).isoformat()
            row = per.setdefault(d, {"n_obs": 0, "n_valid": 0, "n_missing": 0, "n_range": 0, "n_clim": 0,
                                     "n_persist": 0, "n_spike": 0, "vals": []})
            row["n_obs"] += 1
            row[FLAG_COLUMN[flag]] += 1
            if flag == "V":
                row["vals"].append(v)
        means = []
        tot = {c: 0 for c in SUMMARY_COLUMNS[1:8]}
        for d, row in per.items():
            vals = row.pop("vals")
            mean = Fraction(sum(vals), 10 * len(vals)) if vals else None
            row["complete"] = 1 if row["n_valid"] >= 18 else 0
            row["mean_c"] = mean
            row["min_c"] = Fraction(min(vals), 10) if vals else None
            row["max_c"] = Fraction(max(vals), 10) if vals else None
            cm = clim.get(sid)
            row["anomaly_c"] = (mean - Fraction(cm[0]) if (row["complete"] and cm is not None and mean is not None)
                                else None)
            daily[(sid, d)] = row
            for c in tot:
                tot[c] += row[c]
            if row["complete"] and mean is not None:
                means.append(mean)
        tot["days"] = len(per)
        tot["complete_days"] = sum(r["complete"] for r in per.values())
        tot["monthly_mean_c"] = sum(means) / len(means) if means else None
        summary[sid] = tot
    return daily, summary


def daily_text(daily):
    out = [",".join(DAILY_COLUMNS)]
    for (sid, d) in sorted(daily):
        r = daily[(sid, d)]
        out.append(",".join([sid, d] + [cellof(c, r[c]) for c in DAILY_COLUMNS[2:]]))
    return "\n".join(out) + "\n"


def cellof(col, v):
    if col.endswith("_c"):
        return dec2(v)
    return str(v)


def summary_text(summary):
    out = [",".join(SUMMARY_COLUMNS)]
    for sid in sorted(summary):
        r = summary[sid]
        out.append(",".join([sid] + [cellof(c, r[c]) for c in SUMMARY_COLUMNS[1:]]))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- rendering


def render_value(v10, unit):
    if unit == "C":
        return hundredths(v10 * 10)[:-1]
    if unit == "F":
        return hundredths(3200 + 18 * v10)
    return hundredths(27315 + 10 * v10)


def token_for(rng, o, toa5):
    if o[3] is not None:
        return o[3]
    return rng.choice(["NAN", "NAN", "-9999"]) if toa5 else rng.choice(TOKENS)


def render_hdr(rng, sid, rows, unit, spell, offset, tz_text, semicolon, rowzone):
    lines = ["# station: %s" % sid]
    if rng.random() < 0.5:
        lines.append("# logger: CR%d s/n %d" % (rng.choice([300, 800, 1000]), rng.randint(1000, 9999)))
    if unit != "C" or rng.random() < 0.6:
        lines.append("# units: %s" % spell)
    if tz_text is not None:
        lines.append("# tz: %s" % tz_text)
    delim = ";" if semicolon else ","
    tname, vname = rng.choice(TIME_NAMES), rng.choice(TEMP_NAMES)
    extra = rng.random() < 0.5
    header = [tname, vname] if rng.random() < 0.6 else [vname, tname]
    if extra:
        header.insert(1, "rh_pct")
    lines.append(delim.join(header))
    style = rng.randint(0, 3)
    for t, v, flag, tok in rows:
        if rowzone and rng.random() < 0.15:
            z = rng.choice([0, 60, -120, 330])
            ts = stamp(t + z * 60, style) + ("Z" if z == 0 else zone_text(z))
        else:
            ts = stamp(t + offset * 60, style)
        if v is None:
            val = token_for(rng, [t, v, flag, tok], False)
        else:
            val = render_value(v, unit)
            if semicolon:
                val = val.replace(".", ",")
        if rng.random() < 0.1:
            val = '"%s"' % val
        cells = {tname: ts, vname: val, "rh_pct": str(rng.randint(20, 99))}
        lines.append(delim.join(cells[h] for h in header))
    return ("\n".join(lines) + "\n").encode("utf-8")


def render_toa5(rng, sid, rows, unit, offset):
    ulabel = {"C": "Deg C", "F": "Deg F", "K": "K"}[unit]
    lines = ['"TOA5","%s","CR1000","%d","CR1000.Std.32","CPU:hourly.CR1","%d","Hourly"' % (sid, rng.randint(1000, 9999), rng.randint(1000, 9999)),
             '"TIMESTAMP","RECORD","BattV_Min","AirT_Avg"',
             '"TS","RN","Volts","%s"' % ulabel,
             '"","","Min","Avg"']
    for i, (t, v, flag, tok) in enumerate(rows):
        val = render_value(v, unit) if v is not None else '"%s"' % token_for(rng, [t, v, flag, tok], True)
        lines.append('"%s",%d,%s,%s' % (stamp(t + offset * 60, 1), i, "12.%d" % rng.randint(0, 9), val))
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def build(rng, mode, ndays=None, first=None, nstations=4, agency=False):
    """rng: random.Random. -> (files {name: bytes}, truth {daily, summary, findings})."""
    feats = MODES[mode]
    ndays = ndays or (4 if mode in ("qc", "full", "example") else rng.choice([3, 4]))
    if first is None:
        month = rng.choice([1, 4, 7, 10])
        first = date(2026, month, rng.randint(2, 31 - ndays - 1))
    month = first.month
    ids = sorted(rng.sample(range(100, 1000), nstations))
    sids = ["ST%d" % i for i in ids]
    clim, plans, files = {}, {}, {}
    station_rows = ["station,name,utc_offset"]
    clim_rows = ["station,month,mean_c,sd_c"]
    # the reader role of each station: cycled so that every case has every reader feature
    roles = ["f_semi", "k_pos", "toa5", "dup"]
    roles = [roles[i] for i in rng.sample(range(4), 4)]
    for i, sid in enumerate(sids):
        cm = round(rng.uniform(-2, 25), 1)
        sd = round(rng.uniform(4.5, 6.0), 1)
        noclim = "noclim" in feats and i == 1
        if not noclim:
            clim[sid] = (str(cm), sd)
            clim_rows.append("%s,%d,%.1f,%.1f" % (sid, month, cm, sd))
            other = month % 12 + 1
            clim_rows.append("%s,%d,%.1f,%.1f" % (sid, other, cm + rng.choice([-9.0, 9.0]), 1.0))
        role = roles[i % 4]
        plans[sid] = plan_station(rng, feats, sid, first, ndays, cm, None if noclim else sd, role)
        offset = 0
        if "toa5" in feats and role == "toa5":
            offset = rng.choice([60, 120, -300, 570, -180]) if "tz_pos" in feats else 0
        station_rows.append("%s,Site %s,%s" % (sid, sid[2:], zone_text(offset)))
        render_station(rng, feats, sid, plans[sid], role, offset, files)
    files["stations.csv"] = ("\n".join(station_rows) + "\n").encode()
    files["climatology.csv"] = ("\n".join(clim_rows) + "\n").encode()
    daily, summary = truth_tables(plans, clim, month)
    truth = {"daily": daily, "summary": summary, "findings": set()}
    if agency:
        text, findings = agency_table(rng, daily, sids, first, ndays)
        files["agency/daily.csv"] = text.encode()
        truth["findings"] = findings
    return files, truth


def pick_unit(rng, feats, role):
    if role == "f_semi" and "units_f" in feats:
        return "F", rng.choice(F_SPELL)
    if role == "k_pos" and "units_k" in feats:
        return "K", rng.choice(K_SPELL)
    return "C", rng.choice(C_SPELL)


def pick_zone(rng, feats, role):
    """-> (offset minutes, '# tz' text or None)."""
    if role == "f_semi" and "tz_neg_half" in feats:
        m = rng.choice([-210, -570, -150])
        return m, zone_text(m, rng.random() < 0.5)
    if role in ("k_pos", "f_semi", "dup") and "tz_pos" in feats:
        m = rng.choice([60, 120, 330, 345, -240, 0])
        return m, ("UTC" if m == 0 else zone_text(m, rng.random() < 0.5))
    return 0, (None if rng.random() < 0.5 else "UTC")


def render_station(rng, feats, sid, obs, role, offset, files):
    low = sid.lower()
    if role == "toa5" and "toa5" in feats:
        unit = rng.choice(["C", "F"]) if "units_f" in feats else "C"
        files["%s_hourly.dat" % low] = render_toa5(rng, sid, obs, unit, offset)
        return
    unit, spell = pick_unit(rng, feats, role)
    off, tz = pick_zone(rng, feats, role)
    semi = "semicolon" in feats and role == "f_semi"
    rowzone = "rowzone" in feats and role in ("k_pos", "dup")
    if role == "dup" and "dup" in feats:
        cut = len(obs) // 2
        part1 = [list(o) for o in obs[:cut + 5]]
        part2 = [list(o) for o in obs[cut - 5:]]
        # the two files share ten instants; the one whose name sorts first holds the planned values,
        # the other one other values (one shift for all, so a wrong choice moves the day's mean)
        shift = rng.choice([-6, 6])
        part1_first = rng.random() < 0.5
        later_overlap = part2[:10] if part1_first else part1[-10:]
        for o in later_overlap:
            if o[1] is not None:
                o[1] = o[1] + shift
        unit2, spell2 = ("F", rng.choice(F_SPELL)) if "units_f" in feats else ("C", spell)
        off2 = rng.choice([0, 120, -60]) if "tz_pos" in feats else 0
        tz2 = None if off2 == 0 else zone_text(off2)
        n1, n2 = "%s-2026a.csv" % low, "%s-2026b.csv" % low
        if not part1_first:
            n1, n2 = n2, n1
        files[n1] = render_hdr(rng, sid, part1, unit, spell, off, tz, semi, rowzone)
        files[n2] = render_hdr(rng, sid, part2, unit2, spell2, off2, tz2, False, rowzone)
        return
    files["%s.csv" % low] = render_hdr(rng, sid, obs, unit, spell, off, tz, semi, rowzone)


# ---------------------------------------------------------------- agency table with planted faults


def agency_table(rng, daily, sids, first, ndays):
    rows = {}
    findings = set()
    keys = sorted(daily)
    dropped = rng.choice(keys)
    for key in keys:
        r = daily[key]
        cells = {c: cellof(c, r[c]) for c in DAILY_COLUMNS[2:]}
        cells["station"], cells["date"] = key
        fault = rng.choice(["none", "none", "none", "count", "flag", "flag2", "complete", "mean", "max", "anomaly"])
        if key == dropped:
            fault = "drop"
        if fault == "count":
            cells["n_obs"] = str(r["n_obs"] + rng.choice([-2, -1, 1]))
            findings.add((key[0], key[1], "COUNT", "n_obs", cells["n_obs"], str(r["n_obs"])))
        elif fault == "flag" and r["n_valid"] > 0:
            cells["n_valid"] = str(r["n_valid"] - 1)
            cells["n_spike"] = str(r["n_spike"] + 1)
            findings.add((key[0], key[1], "FLAG", "n_valid", cells["n_valid"], str(r["n_valid"])))
        elif fault == "flag2":
            col = rng.choice(["n_range", "n_clim", "n_persist"])
            cells[col] = str(r[col] + 1)
            cells["n_missing"] = str(r["n_missing"] + 1) if r["n_missing"] == 0 else str(r["n_missing"] - 1)
            findings.add((key[0], key[1], "FLAG", "n_missing", cells["n_missing"], str(r["n_missing"])))
        elif fault == "complete":
            cells["complete"] = str(1 - r["complete"])
            findings.add((key[0], key[1], "COMPLETENESS", "complete", cells["complete"], str(r["complete"])))
        elif fault == "mean" and r["mean_c"] is not None:
            cells["mean_c"] = dec2(r["mean_c"] + Fraction(rng.choice([-150, -40, 30, 120]), 100))
            findings.add((key[0], key[1], "AGGREGATE", "mean_c", cells["mean_c"], dec2(r["mean_c"])))
        elif fault == "max" and r["max_c"] is not None:
            cells["max_c"] = dec2(r["max_c"] + Fraction(rng.choice([5, 10, 23]), 10))
            findings.add((key[0], key[1], "AGGREGATE", "max_c", cells["max_c"], dec2(r["max_c"])))
        elif fault == "anomaly" and r["mean_c"] is not None:
            if r["anomaly_c"] is None:
                cells["anomaly_c"] = dec2(Fraction(rng.randint(-300, 300), 100))
            else:
                cells["anomaly_c"] = dec2(r["anomaly_c"] + Fraction(rng.choice([-90, -35, 40, 150]), 100))
            findings.add((key[0], key[1], "ANOMALY", "anomaly_c", cells["anomaly_c"], dec2(r["anomaly_c"])))
        elif fault == "drop":
            findings.add((key[0], key[1], "MISSING_ROW", "", "", ""))
            continue
        rows[key] = cells
    # one row the network does not have
    sid = rng.choice(sids)
    extra = (sid, (first + timedelta(days=ndays + 1)).isoformat())
    rows[extra] = dict(rows[next(iter(rows))], station=extra[0], date=extra[1])
    findings.add((extra[0], extra[1], "EXTRA_ROW", "", "", ""))
    cols = list(DAILY_COLUMNS)
    if rng.random() < 0.5:
        cols = cols[:2] + [cols[2 + i] for i in rng.sample(range(len(cols) - 2), len(cols) - 2)]
    out = [",".join(cols)]
    for key in sorted(rows):
        out.append(",".join(rows[key][c] for c in cols))
    return "\n".join(out) + "\n", findings
