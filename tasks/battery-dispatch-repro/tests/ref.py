"""The grader's own battery model, written from the instruction in another form.

Time is integer minutes since 1970-01-01 UTC (civil dates by Hinnant's day-count formulas, no
datetime); the policy works in energies per interval (kWh drawn from or put into the grid and the
store) instead of powers, and the stored energy is tracked directly in kWh. Bills are folded month
by month from the integer-minute grid."""
import math
import re

STEP = 15            # minutes
H = STEP / 60.0      # hours per interval
STAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$")


def days_from_civil(y, m, d):
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z):
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def minutes_of(text):
    """(UTC minute, offset minutes) of `YYYY-MM-DD HH:MM+HH:MM`."""
    g = STAMP.match(text.strip()).groups()
    off = (int(g[6]) * 60 + int(g[7])) * (1 if g[5] == "+" else -1)
    local = days_from_civil(int(g[0]), int(g[1]), int(g[2])) * 1440 + int(g[3]) * 60 + int(g[4])
    return local - off, off


def utc_key(minute):
    y, m, d = civil_from_days(minute // 1440)
    r = minute % 1440
    return "%04d-%02d-%02dT%02d:%02dZ" % (y, m, d, r // 60, r % 60)


def month_of(local_minute):
    y, m, _ = civil_from_days(local_minute // 1440)
    return "%04d-%02d" % (y, m)


def stamp_text(utc_minute, off):
    local = utc_minute + off
    y, m, d = civil_from_days(local // 1440)
    r = local % 1440
    a = abs(off)
    return "%04d-%02d-%02d %02d:%02d%s%02d:%02d" % (y, m, d, r // 60, r % 60, "+" if off >= 0 else "-", a // 60, a % 60)


def split_file(text):
    meta, body = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            k, _, v = line[1:].partition(":")
            meta[k.strip().lower()] = v.strip()
        elif line.strip():
            body.append([c.strip() for c in line.split(",")])
    return meta, body[0], body[1:]


def series(text):
    """[(utc start minute, month, load kW, price)] in time order from a load.csv text."""
    meta, head, rows = split_file(text)
    back = STEP if meta.get("timestamp_label", "start").lower() == "end" else 0
    col = {h: i for i, h in enumerate(head)}
    per_kwh = "load_kwh" in col
    seen = {}
    for r in rows:
        t, off = minutes_of(r[col["timestamp"]])
        t -= back
        load = float(r[col["load_kwh" if per_kwh else "load_kw"]])
        seen[t] = (t, month_of(t + off), load / H if per_kwh else load, float(r[col["price"]]))
    return [seen[t] for t in sorted(seen)]


def log_rows(text):
    """{utc start minute: {column: value}} from a vendor_log.csv text."""
    meta, head, rows = split_file(text)
    back = STEP if meta.get("timestamp_label", "start").lower() == "end" else 0
    out = {}
    for r in rows:
        t, _ = minutes_of(r[0])
        out[t - back] = {head[i]: float(r[i]) for i in range(1, len(head))}
    return out


class Store:
    """Battery parameters in energy terms."""

    def __init__(self, b):
        cap = float(b["capacity_kwh"])
        self.cap = cap
        self.lo, self.hi = float(b["soc_min"]) * cap, float(b["soc_max"]) * cap
        self.e0 = float(b["soc_initial"]) * cap
        self.step_e = float(b["power_kw"]) * H      # kWh through the inverter per interval at full power
        self.power = float(b["power_kw"])
        self.k = math.sqrt(float(b["round_trip_efficiency"]))


def simulate(ser, b, price_max, targets):
    """Rows (t, month, load, price, charge kW, discharge kW, grid kW, stored kWh, drawn kWh)."""
    s = Store(b)
    e = s.e0
    out = []
    for t, mon, load, price in ser:
        cap_line = targets[mon]
        want_out = (load - cap_line) * H          # energy the site needs above its target
        room_in = (cap_line - load) * H           # energy the grid may add without passing it
        if want_out > 0:
            give = min(want_out, s.step_e, max(e - s.lo, 0.0) * s.k)
            give = max(give, 0.0)
            e -= give / s.k
            c_e, d_e, drawn = 0.0, give, give / s.k
        elif price <= price_max:
            take = min(room_in, s.step_e, max(s.hi - e, 0.0) / s.k)
            take = max(take, 0.0)
            e += take * s.k
            c_e, d_e, drawn = take, 0.0, 0.0
        else:
            c_e = d_e = drawn = 0.0
        out.append((t, mon, load, price, c_e / H, d_e / H, (load * H - d_e + c_e) / H, e, drawn))
    return out


def fold_bills(items, rate):
    """items: (month, price, grid kW) -> {month: [energy cost, peak kW, demand cost]} in first-seen order."""
    acc = {}
    for mon, price, grid in items:
        a = acc.setdefault(mon, [0.0, 0.0])
        g = grid if grid > 0 else 0.0
        a[0] += g * H * price
        if g > a[1]:
            a[1] = g
    return {m: (a[0], a[1], a[1] * rate) for m, a in acc.items()}


def bill_table(site, ser):
    rows = simulate(ser, site["battery"], float(site["policy"]["charge_price_max"]),
                    {k: float(v) for k, v in site["policy"]["demand_target_kw"].items()})
    rate = float(site["tariff"]["demand_charge_per_kw"])
    base = fold_bills([(r[1], r[3], r[2]) for r in rows], rate)
    withb = fold_bills([(r[1], r[3], r[6]) for r in rows], rate)
    s = Store(site["battery"])
    out = {}
    for m in base:
        thr = sum(r[8] for r in rows if r[1] == m)
        be, bp, bd = base[m]
        ne, np_, nd = withb[m]
        out[m] = {"baseline_energy_cost": be, "baseline_peak_kw": bp, "baseline_demand_cost": bd,
                  "energy_cost": ne, "peak_kw": np_, "demand_cost": nd, "savings": (be + bd) - (ne + nd),
                  "throughput_kwh": thr, "equivalent_full_cycles": thr / (s.hi - s.lo),
                  "degradation_cost": thr * float(site["degradation_cost_per_kwh"])}
    return rows, out


def study_table(study, ser):
    rate = float(study["tariff"]["demand_charge_per_kw"])
    base = fold_bills([(r[1], r[3], r[2]) for r in ser], rate)
    out = []
    for size in study["sizes"]:
        b = dict(study["battery"], **size)
        cut = float(study["target_shave_fraction"]) * float(b["power_kw"])
        targets = {m: max(v[1] - cut, 0.0) for m, v in base.items()}
        rows = simulate(ser, b, float(study["charge_price_max"]), targets)
        withb = fold_bills([(r[1], r[3], r[6]) for r in rows], rate)
        es = sum(base[m][0] - withb[m][0] for m in base)
        ds = sum(base[m][2] - withb[m][2] for m in base)
        thr = sum(r[8] for r in rows)
        s = Store(b)
        deg = thr * float(study["degradation_cost_per_kwh"])
        out.append({"capacity_kwh": s.cap, "power_kw": s.power,
                    "baseline_cost": sum(v[0] + v[2] for v in base.values()),
                    "battery_cost": sum(v[0] + v[2] for v in withb.values()),
                    "energy_savings": es, "demand_savings": ds, "bill_savings": es + ds,
                    "equivalent_full_cycles": thr / (s.hi - s.lo), "degradation_cost": deg,
                    "net_savings": es + ds - deg})
    return out


def audit_rules(site, ser, log, claims):
    """[(key, code, value)] sorted, the instruction's audit rules on the written numbers."""
    s = Store(site["battery"])
    found = []
    before = s.e0
    grid = []
    for t, mon, load, price in ser:
        r = log[t]
        c, d, g, e = r["charge_kw"], r["discharge_kw"], r["grid_kw"], r["soc_kwh"]
        k = utc_key(t)
        if not (s.lo - 0.001 <= e <= s.hi + 0.001):
            found.append((k, "SOC_RANGE", e))
        if max(c, d) > s.power + 0.001:
            found.append((k, "POWER_LIMIT", max(c, d)))
        if g < -0.001:
            found.append((k, "EXPORT", g))
        gap = g + d - c - load
        if abs(gap) > 0.01:
            found.append((k, "BALANCE", gap))
        drift = e - (before + (c * s.k - d / s.k) * H)
        if abs(drift) > 0.01:
            found.append((k, "EFFICIENCY", drift))
        before = e
        grid.append((mon, price, g, load))
    rate = float(site["tariff"]["demand_charge_per_kw"])
    base = fold_bills([(m, p, l) for m, p, _, l in grid], rate)
    withb = fold_bills([(m, p, g) for m, p, g, _ in grid], rate)
    for mon, claimed in claims:
        if mon in base:
            saving = sum(base[mon][i] for i in (0, 2)) - sum(withb[mon][i] for i in (0, 2))
            if abs(claimed - saving) > 0.01:
                found.append((mon, "CLAIM", saving))
    return sorted(found)
