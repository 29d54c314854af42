"""Hidden period folders for meter-billing, built from an rng: a period (zone, dates, holidays, VAT),
tariffs (time-of-use bands with a night band across midnight, consumption blocks, versions changing
mid-period), accounts, and per meter a true half-hour load from which the register reads are
written (rollovers, meter exchanges, estimated reads, gaps). Expected bills come from billref."""
import csv
import io
import json
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import billref

ALL = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WORK = ALL[:5]
SHIFTS = {  # 2026 daylight-saving changes
    "Europe/London": [date(2026, 3, 29), date(2026, 10, 25)],
    "Europe/Berlin": [date(2026, 3, 29), date(2026, 10, 25)],
    "America/New_York": [date(2026, 3, 8), date(2026, 11, 1)],
    "Australia/Sydney": [date(2026, 4, 5), date(2026, 10, 4)],
}
QUIET = {"Europe/London": (1, 15), "Europe/Berlin": (2, 2), "America/Chicago": (1, 12), "Australia/Perth": (6, 8)}


def table(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode()


def money4(rng, lo, hi):
    return "%.4f" % (rng.randint(int(lo * 10000), int(hi * 10000)) / 10000)


def tou_version(rng, start, bump=0.0):
    peak_from = rng.choice(["16:00", "16:30", "17:00"])
    peak_to = rng.choice(["19:00", "19:30", "20:00"])
    night_from = rng.choice(["22:00", "22:30", "23:00", "23:30"])
    night_to = rng.choice(["05:00", "06:00", "06:30", "07:00"])
    bands = [
        {"name": "peak", "days": WORK, "from": peak_from, "to": peak_to, "rate": money4(rng, 0.34 + bump, 0.42 + bump)},
        {"name": "shoulder", "days": WORK, "from": rng.choice(["07:00", "07:30"]), "to": "21:00", "rate": money4(rng, 0.26 + bump, 0.30 + bump)},
        {"name": "night", "days": ALL + ["hol"], "from": night_from, "to": night_to, "rate": money4(rng, 0.11 + bump, 0.16 + bump)},
        {"name": "weekend", "days": ["sat", "sun", "hol"], "from": "09:00", "to": "17:00", "rate": money4(rng, 0.18 + bump, 0.22 + bump)},
    ]
    return {"from": start.isoformat(), "kind": "tou", "standing": standing(rng),
            "bands": bands, "default": {"name": "day", "rate": money4(rng, 0.22 + bump, 0.25 + bump)}}


def standing(rng):
    # multiples of half a cent: days x rate often lands on a half cent (the half-even rule)
    return "%.4f" % (rng.randint(70, 110) * 0.005)


def block_version(rng, start, per_day_kwh, ndays, bump=0.0):
    total = per_day_kwh * ndays
    first = max(1, int(total * rng.uniform(0.25, 0.45)))
    second = first + max(1, int(total * rng.uniform(0.25, 0.4)))
    blocks = [{"upto": str(first), "rate": money4(rng, 0.17 + bump, 0.2 + bump)},
              {"upto": str(second), "rate": money4(rng, 0.24 + bump, 0.28 + bump)},
              {"upto": None, "rate": money4(rng, 0.31 + bump, 0.36 + bump)}]
    return {"from": start.isoformat(), "kind": "block", "standing": standing(rng), "blocks": blocks}


def window(zone, first, last):
    z = ZoneInfo(zone)
    lo = datetime.combine(first, time(0), tzinfo=z).astimezone(timezone.utc)
    hi = datetime.combine(last + timedelta(days=1), time(0), tzinfo=z).astimezone(timezone.utc)
    return lo, hi


def load_profile(rng, slots, zone, solar=False):
    """True Wh of every half hour."""
    z = ZoneInfo(zone)
    base = rng.randint(60, 160)
    out = []
    for t in slots:
        h = t.astimezone(z).hour
        if solar:
            w = 0 if h < 8 or h >= 17 else rng.randint(0, 900)
        else:
            w = base + rng.randint(0, 250) + (rng.randint(100, 700) if 17 <= h < 21 else 0)
        out.append(w)
    return out


def fmt_reg(wh):
    return "%d.%03d" % divmod(wh, 1000)


def read_file(rng, slots, profile, features, digits):
    """Register reads at every slot edge from the true load, then the planted features."""
    modulus = 10 ** digits * 1000
    edges = slots + [slots[-1] + timedelta(minutes=30)]
    if "rollover" in features:
        reg = modulus - sum(profile) // rng.randint(2, 5)
    else:
        reg = rng.randint(1000, modulus // 3)
    rows = []  # [iso, wh, flag]
    exch = rng.randint(len(edges) // 4, 3 * len(edges) // 4) if "exchange" in features else -1
    for i, t in enumerate(edges):
        iso = t.strftime("%Y-%m-%dT%H:%MZ")
        if i == exch:
            rows.append([iso, reg % modulus, "F"])
            reg = rng.randint(0, 40000)
            rows.append([iso, reg, "X"])
        else:
            rows.append([iso, reg % modulus, "A"])
        if i < len(profile):
            reg += profile[i]
    n = len(rows)
    protect = {0, 1, 2, n - 1, n - 2, n - 3}
    protect |= {i for i, r in enumerate(rows) if r[2] in "FX"}
    protect |= {i - 1 for i, r in enumerate(rows) if r[2] == "F"} | {i + 1 for i, r in enumerate(rows) if r[2] == "X"}
    drop = set()
    for _ in range(features.count("gaps") * rng.randint(4, 9)):
        s = rng.randint(3, n - 12)
        span = set(range(s, s + rng.randint(1, 7)))
        if not span & protect:
            drop |= span
    if "estimates" in features:
        for _ in range(rng.randint(3, 6)):
            s = rng.randint(3, n - 14)
            span = list(range(s, s + rng.randint(3, 9)))
            if set(span) & (protect | drop) or (s - 1) in drop or span[-1] + 1 in drop:
                continue
            a, b = rows[s - 1][1], rows[span[-1] + 1][1]
            if b < a:
                continue
            # the estimates: a stock profile's shape, not the true load
            marks = sorted(rng.randint(0, 1000) for _ in span)
            for i, m in zip(span, marks):
                rows[i] = [rows[i][0], a + (b - a) * m // 1000, "E"]
            protect |= set(span)
    body = [r for i, r in enumerate(rows) if i not in drop]
    text = "# digits: %d\ntimestamp,register,flag\n" % digits
    text += "".join("%s,%s,%s\n" % (r[0], fmt_reg(r[1]), r[2]) for r in body)
    return text.encode()


def build(rng, kind, first=None, ndays=None, n_accounts=None, zone=None):
    """(files, want) for one period folder of a kind: reads, tou, charges, audit, mixed."""
    if kind in ("tou", "audit", "mixed", "example"):
        zone = zone or rng.choice(sorted(SHIFTS))
        shift = rng.choice(SHIFTS[zone])
        ndays = ndays or rng.randint(6, 10)
        first = first or shift - timedelta(days=rng.randint(1, ndays - 2))
    else:
        zone = zone or rng.choice(sorted(QUIET))
        m, d = QUIET.get(zone, (9, 1))
        ndays = ndays or rng.choice([7, 9, 11, 13])
        first = first or date(2026, m, d) + timedelta(days=rng.randint(0, 6))
    last = first + timedelta(days=ndays - 1)
    days = [first + timedelta(days=i) for i in range(ndays)]
    holidays = []
    if kind not in ("reads", "example"):
        weekdays = [d for d in days if d.weekday() < 5]
        holidays = sorted(rng.sample(weekdays, min(len(weekdays), rng.randint(1, 2))))
    lo, hi = window(zone, first, last)
    slots = []
    t = lo - timedelta(hours=1)
    while t < hi + timedelta(hours=1):
        slots.append(t)
        t += timedelta(minutes=30)
    change = first + timedelta(days=rng.randint(1, ndays - 2))
    tariffs = {}
    tariffs["HOME-TOU"] = [tou_version(rng, date(2026, 1, 1) if first.month > 1 else date(2025, 12, 1))]
    if kind == "example" or (kind != "reads" and rng.random() < 0.8):
        tariffs["HOME-TOU"].append(tou_version(rng, change, bump=0.02))
    tariffs["SAVER-TOU"] = [tou_version(rng, date(2025, 11, 1))]
    per_day = 12
    tariffs["BLOCK"] = [block_version(rng, date(2025, 10, 1), per_day, ndays)]
    if kind in ("charges", "mixed", "audit"):
        tariffs["BLOCK"].append(block_version(rng, change, per_day, ndays, bump=0.015))
    tariffs["BLOCK-FLAT"] = [block_version(rng, date(2025, 12, 15), per_day, ndays)]
    n = n_accounts or rng.randint(4, 6)
    accounts = []
    files = {}
    plan = {
        "reads": [["gaps", "rollover"], ["gaps", "exchange"], ["gaps", "estimates"], ["gaps", "exchange", "rollover"],
                  ["estimates", "exchange"], ["rollover", "estimates", "gaps"]],
        "tou": [["gaps"], [], ["gaps", "estimates"], ["gaps"], [], ["gaps"]],
        "charges": [["gaps"], [], ["gaps"], [], ["gaps"], []],
    }.get(kind, [["gaps", "rollover"], ["gaps", "exchange"], ["gaps", "estimates"], ["gaps"], ["exchange", "estimates"], ["rollover"]])
    order = rng.sample(plan, len(plan))
    for i in range(n):
        acct = "A%05d" % rng.randint(10000, 99999)
        meter = "M%06d" % rng.randint(100000, 999999)
        if kind == "charges":
            tid = ["BLOCK", "BLOCK", "HOME-TOU", "BLOCK", "BLOCK-FLAT", "SAVER-TOU"][i % 6]
        elif kind == "tou":
            tid = ["HOME-TOU", "SAVER-TOU", "HOME-TOU", "BLOCK", "HOME-TOU", "SAVER-TOU"][i % 6]
        else:
            tid = rng.choice(["HOME-TOU", "HOME-TOU", "SAVER-TOU", "BLOCK", "BLOCK-FLAT"])
        features = order[i % len(order)]
        if kind == "example":  # the public periods: no rollover, exchange, gap or holiday
            tid, features = [("HOME-TOU", ["estimates"]), ("SAVER-TOU", []), ("BLOCK-FLAT", []), ("HOME-TOU", [])][i % 4]
        digits = rng.choice([5, 6]) if "rollover" in features else 6
        files["reads/%s.csv" % meter] = read_file(rng, slots, load_profile(rng, slots, zone), features, digits)
        exp_meter, exp_rate = "", ""
        if (i % 2 == 0) if kind == "example" else rng.random() < (0.6 if kind in ("charges", "mixed", "audit") else 0.3):
            exp_meter = "X%06d" % rng.randint(100000, 999999)
            exp_rate = money4(rng, 0.04, 0.15)
            files["reads/%s.csv" % exp_meter] = read_file(rng, slots, load_profile(rng, slots, zone, solar=True), ["gaps"], 6)
        accounts.append([acct, meter, tid, exp_meter, exp_rate])
    accounts.sort()
    vat = rng.choice(["0.05", "0.05", "0.2", "0.1"]) if kind != "charges" else "0.05"
    files["period.json"] = (json.dumps({"start": first.isoformat(), "end": last.isoformat(), "tz": zone,
                                        "vat_rate": vat, "holidays": [d.isoformat() for d in holidays]}, indent=1) + "\n").encode()
    files["tariffs.json"] = (json.dumps(tariffs, indent=1) + "\n").encode()
    files["accounts.csv"] = table(["account", "meter", "tariff", "export_meter", "export_rate"], accounts)
    want = billref.expected(files)
    return files, want


def c2(x):
    return billref.c2(x)


def cents_of(text):
    sign = -1 if text.startswith("-") else 1
    a, b = text.lstrip("-").split(".")
    return sign * (int(a) * 100 + int(b))


def wh_of(text):
    a, b = text.split(".")
    return int(a) * 1000 + int(b)


def plant_vendor(rng, files, want, vat_rate):
    """The other supplier's bills.csv: one planted error for most accounts; returns (bytes, findings)."""
    vat = __import__("fractions").Fraction(vat_rate)
    rows, findings = [], set()
    accts = sorted(want["bills"])
    errors = ["IMPORT_USAGE", "IMPORT_USAGE", "IMPORT_USAGE", "ENERGY_CHARGE", "STANDING_CHARGE", "VAT", "ARITHMETIC",
              "NET", "EXPORT_USAGE", "EXPORT_USAGE", "EXPORT_CREDIT", None, None, "MISSING_BILL"]
    for a in accts:
        good = list(want["bills"][a])
        imp, exp = wh_of(good[0]), wh_of(good[1])
        energy, standing, net, vatc, credit, total = (cents_of(x) for x in good[2:])
        err = rng.choice(errors)
        if err in ("EXPORT_USAGE", "EXPORT_CREDIT") and exp == 0:
            err = "VAT"
        if err == "MISSING_BILL":
            findings.add((a, "MISSING_BILL", "total", "", good[7]))
            continue
        field = None
        if err == "IMPORT_USAGE":
            d = rng.choice([-1, 1]) * rng.randint(1, 30000)
            imp = max(0, imp + d)
            energy += d * rng.randint(15, 35) // 1000
            field, reason = "import_kwh", "IMPORT_USAGE"
        elif err == "ENERGY_CHARGE":
            energy += rng.choice([-1, 1]) * rng.randint(1, 900)
            field, reason = "energy", "ENERGY_CHARGE"
        elif err == "STANDING_CHARGE":
            standing += rng.choice([-1, 1]) * rng.randint(35, 55)
            field, reason = "standing", "STANDING_CHARGE"
        elif err == "VAT":
            vatc += rng.choice([-1, 1]) * rng.choice([1, 1, 2, 150])
            field, reason = "vat", "VAT"
        elif err == "NET":
            net += rng.choice([-1, 1]) * rng.randint(1, 500)
            field, reason = "net", "ARITHMETIC"
        elif err == "ARITHMETIC":
            total += rng.choice([-1, 1]) * rng.randint(1, 300)
            field, reason = "total", "ARITHMETIC"
        elif err == "EXPORT_USAGE":
            d = rng.randint(1, 20000)
            exp += d
            credit -= d * rng.randint(4, 15) // 1000
            field, reason = "export_kwh", "EXPORT_USAGE"
        elif err == "EXPORT_CREDIT":
            credit = -round(-credit * (1 + vat))
            if credit == cents_of(good[6]):
                credit -= 1
            field, reason = "credit", "EXPORT_CREDIT"
        if field in ("import_kwh", "energy", "standing"):
            net = energy + standing
            vatc = round(__import__("fractions").Fraction(net) * vat)
        if field in ("import_kwh", "energy", "standing", "vat", "net", "export_kwh", "credit"):
            total = net + vatc + credit
        row = [a, billref.q3(imp), billref.q3(exp)] + [c2(x) for x in (energy, standing, net, vatc, credit, total)]
        rows.append(row)
        if field:
            i = billref.ORDER.index(field) + 1
            findings.add((a, reason, field, row[i], good[i - 1]))
    if rng.random() < 0.7:
        ghost = "A%05d" % rng.randint(10000, 99999)
        if ghost not in want["bills"]:
            row = [ghost, "%d.%03d" % (rng.randint(50, 300), rng.randint(0, 999)), "0.000", "41.20", "4.55", "45.75", "2.29", "0.00", "48.04"]
            rows.append(row)
            findings.add((ghost, "UNKNOWN_ACCOUNT", "total", "48.04", ""))
    rows.sort()
    return table(["account"] + list(billref.ORDER), rows), findings


def build_audit(rng, kind="audit", **kw):
    files, want = build(rng, kind, **kw)
    vat = json.loads(files["period.json"])["vat_rate"]
    vendor, findings = plant_vendor(rng, files, want, vat)
    files["vendor/bills.csv"] = vendor
    want["findings"] = findings
    return files, want
