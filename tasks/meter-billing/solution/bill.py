#!/usr/bin/env python3
"""meterbill, repaired and self-contained: python3 /app/bill.py run PERIOD_DIR OUT_DIR
and python3 /app/bill.py audit PERIOD_DIR VENDOR_CSV OUT_CSV (docs/BILLING.md)."""

from datetime import date
from datetime import date, datetime, time, timedelta, timezone
from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from decimal import Decimal, ROUND_HALF_EVEN
from fractions import Fraction
from zoneinfo import ZoneInfo
import argparse
import csv
import json
import os
import sys


# ---- money ----
CENT = Decimal("0.01")
ZERO = Decimal("0.00")


def dec(text):
    """A Decimal from a JSON/CSV value ("0.2480", 0.25 or 3)."""
    return Decimal(str(text).strip())


def cents(amount):
    """BILLING.md section 5: every rounding of money is half-even to the cent."""
    return amount.quantize(CENT, rounding=ROUND_HALF_EVEN)


def kwh(wh):
    """Whole Wh as an exact Decimal number of kWh."""
    return Decimal(wh) / 1000


def wh_of(text):
    """A register value in kWh (up to three decimals) as whole Wh."""
    value = dec(text) * 1000
    if value != value.to_integral_value():
        raise ValueError("register value with more than three decimals: %r" % text)
    return int(value)


def fmt_kwh(wh):
    return "%d.%03d" % divmod(wh, 1000)


def fmt_money(amount):
    amount = cents(amount)
    if amount == 0:
        amount = ZERO
    return "%.2f" % amount


# ---- period ----
SLOT = timedelta(minutes=30)


class Period:
    def __init__(self, folder):
        with open(os.path.join(folder, "period.json"), encoding="utf-8") as f:
            raw = json.load(f)
        self.start = date.fromisoformat(raw["start"])
        self.end = date.fromisoformat(raw["end"])
        self.zone = ZoneInfo(raw["tz"])
        self.vat_rate = dec(raw["vat_rate"])
        self.holidays = {date.fromisoformat(d) for d in raw.get("holidays", [])}

    def days(self):
        """Every local date of the period, first and last included."""
        n = (self.end - self.start).days + 1
        return [self.start + timedelta(days=i) for i in range(n)]

    def window(self):
        """UTC instants of local midnight at the start and after the last day."""
        lo = datetime.combine(self.start, time(0), tzinfo=self.zone).astimezone(timezone.utc)
        hi = datetime.combine(self.end + timedelta(days=1), time(0), tzinfo=self.zone).astimezone(timezone.utc)
        return lo, hi

    def slots(self):
        lo, hi = self.window()
        out = []
        t = lo
        while t < hi:
            out.append(t)
            t += SLOT
        return out

    def local(self, instant):
        """Local wall-clock time of a UTC instant."""
        return instant.astimezone(self.zone)


# ---- reads ----
SLOT_SECONDS = 1800


def parse_ts(text):
    text = text.strip()
    if text.endswith("Z"):
        text = text[:-1]
    return datetime.strptime(text, "%Y-%m-%dT%H:%M").replace(tzinfo=timezone.utc)


class Register:
    """One meter's reads: (instant, Wh, flag) in file order, and the register's digit count."""

    def __init__(self, meter, digits, rows):
        self.meter = meter
        self.digits = digits
        self.rows = rows

    @property
    def modulus(self):
        return 10 ** self.digits * 1000


def load_register(folder, meter):
    path = os.path.join(folder, "reads", meter + ".csv")
    digits = 6
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                if key.strip().lower() == "digits":
                    digits = int(value)
                continue
            ts, reg, flag = [c.strip() for c in line.split(",")]
            if ts == "timestamp":
                continue
            rows.append((parse_ts(ts), wh_of(reg), flag.upper()))
    return Register(meter, digits, rows)


def points(register):
    """Usable reads as (instant, Wh arriving, Wh leaving).

    Estimated reads (E) are not used. A meter exchange is a final read of the old register (F)
    followed by the first read of the new one (X) at the same instant: the interval up to the
    instant ends on F, the next one starts from X."""
    out = []
    for ts, wh, flag in register.rows:
        if flag == "E":
            continue
        if flag == "X" and out and out[-1][0] == ts:
            out[-1] = (ts, out[-1][1], wh)
            continue
        out.append((ts, wh, wh))
    return out


def consumption(register, a, b):
    """Wh between a read leaving `a` and the next arriving `b` (a decrease is a rollover)."""
    delta = b - a
    if delta < 0:
        delta += register.modulus
    return delta


def slot_usage(register):
    """{UTC slot start: Wh}: each interval's consumption spread over its half-hour slots."""
    usage = {}
    pts = points(register)
    for (t0, _, out0), (t1, in1, _) in zip(pts, pts[1:]):
        k = int((t1 - t0).total_seconds()) // SLOT_SECONDS
        if k <= 0:
            continue
        each, extra = divmod(consumption(register, out0, in1), k)
        for i in range(k):
            usage[t0 + timedelta(seconds=SLOT_SECONDS * i)] = each + (1 if i < extra else 0)
    return usage


# ---- tariff ----
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def minutes(text):
    h, m = text.split(":")
    return int(h) * 60 + int(m)


class Version:
    def __init__(self, raw):
        self.start = date.fromisoformat(raw["from"])
        self.label = raw["from"]
        self.kind = raw["kind"]
        self.standing = dec(raw["standing"])
        self.bands = []
        for b in raw.get("bands", []):
            self.bands.append({"name": b["name"], "days": set(b["days"]), "lo": minutes(b["from"]),
                               "hi": minutes(b["to"]), "rate": dec(b["rate"])})
        d = raw.get("default")
        self.default = {"name": d["name"], "rate": dec(d["rate"])} if d else None
        self.blocks = [(None if b["upto"] is None else dec(b["upto"]), dec(b["rate"])) for b in raw.get("blocks", [])]


def load_tariffs(folder):
    with open(os.path.join(folder, "tariffs.json"), encoding="utf-8") as f:
        raw = json.load(f)
    return {tid: sorted((Version(v) for v in versions), key=lambda v: v.start) for tid, versions in raw.items()}


def in_force(versions, day):
    """The version in force on a local date: the latest one starting on or before it."""
    found = None
    for v in versions:
        if v.start <= day:
            found = v
    if found is None:
        raise ValueError("no tariff version in force on %s" % day)
    return found


def day_type(day, holidays):
    return "hol" if day in holidays else WEEKDAYS[day.weekday()]


def band_of(version, local_dt, holidays):
    """The first band whose days and [from, to) window hold the local time, else the default."""
    kind = day_type(local_dt.date(), holidays)
    t = local_dt.hour * 60 + local_dt.minute
    for band in version.bands:
        if kind not in band["days"]:
            continue
        lo, hi = band["lo"], band["hi"]
        inside = (lo <= t < hi) if lo < hi else (t >= lo or t < hi)
        if inside:
            return band
    return version.default


# ---- charges ----
class Line:
    def __init__(self, kind, version, item, quantity, rate, amount):
        self.kind = kind          # energy / standing / export
        self.version = version    # the tariff version's "from" date, "" for export
        self.item = item          # band name, block1.., days, export
        self.quantity = quantity  # Wh (energy, export) or days (standing)
        self.rate = rate
        self.amount = amount


def days_per_version(period, versions):
    counts = {}
    for day in period.days():
        v = in_force(versions, day)
        counts[v.label] = counts.get(v.label, 0) + 1
    return counts


def block_split(version, wh, seg_days, period_days):
    """Wh of a segment into its blocks; each threshold is pro-rated by the segment's share of days
    and rounded half-even to the Wh."""
    out = []
    used = 0
    for upto, rate in version.blocks:
        if upto is None:
            take = wh - used
        else:
            cap = round(Fraction(upto) * 1000 * seg_days / period_days)
            take = max(0, min(wh, cap) - used)
        out.append((take, rate))
        used += take
    return out


def energy_lines(period, versions, usage):
    by_band = {}
    by_version = {}
    rates = {}
    for slot in sorted(usage):
        wh = usage[slot]
        local = period.local(slot)
        v = in_force(versions, local.date())
        if v.kind == "tou":
            band = band_of(v, local, period.holidays)
            key = (v.label, band["name"])
            by_band[key] = by_band.get(key, 0) + wh
            rates[key] = band["rate"]
        else:
            by_version[v.label] = (v, by_version.get(v.label, (v, 0))[1] + wh)
    lines = []
    for key in sorted(by_band):
        wh = by_band[key]
        if wh:
            lines.append(Line("energy", key[0], key[1], wh, rates[key], cents(kwh(wh) * rates[key])))
    counts = days_per_version(period, versions)
    total_days = len(period.days())
    for label in sorted(by_version):
        v, wh = by_version[label]
        for i, (take, rate) in enumerate(block_split(v, wh, counts.get(label, 0), total_days), 1):
            if take:
                lines.append(Line("energy", label, "block%d" % i, take, rate, cents(kwh(take) * rate)))
    return lines


def standing_lines(period, versions):
    lines = []
    by_label = {v.label: v for v in versions}
    for label, n in sorted(days_per_version(period, versions).items()):
        rate = by_label[label].standing
        lines.append(Line("standing", label, "days", n, rate, cents(n * rate)))
    return lines


# ---- billing ----
BILL_COLUMNS = ["account", "import_kwh", "export_kwh", "energy", "standing", "net", "vat", "credit", "total"]
LINE_COLUMNS = ["account", "kind", "version", "item", "quantity", "rate", "amount"]


def accounts(folder):
    with open(os.path.join(folder, "accounts.csv"), newline="", encoding="utf-8") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(f)]


def window_usage(period, folder, meter):
    lo, hi = period.window()
    usage = slot_usage(load_register(folder, meter))
    return {t: wh for t, wh in usage.items() if lo <= t < hi}


def bill_account(period, tariffs, folder, acct):
    versions = tariffs[acct["tariff"]]
    usage = window_usage(period, folder, acct["meter"])
    lines = energy_lines(period, versions, usage) + standing_lines(period, versions)
    energy = sum((l.amount for l in lines if l.kind == "energy"), ZERO)
    standing = sum((l.amount for l in lines if l.kind == "standing"), ZERO)
    net = energy + standing
    vat = cents(net * period.vat_rate)
    export_wh = 0
    credit = ZERO
    if acct.get("export_meter"):
        export_wh = sum(window_usage(period, folder, acct["export_meter"]).values())
        rate = dec(acct["export_rate"])
        credit = -cents(kwh(export_wh) * rate)
        lines.append(Line("export", "", "export", export_wh, rate, credit))
    total = net + vat + credit
    bill = {"account": acct["account"], "import_kwh": sum(usage.values()), "export_kwh": export_wh,
            "energy": energy, "standing": standing, "net": net, "vat": vat, "credit": credit, "total": total}
    return bill, lines


def bill_period(folder):
    period = Period(folder)
    tariffs = load_tariffs(folder)
    out = []
    for acct in sorted(accounts(folder), key=lambda a: a["account"]):
        out.append(bill_account(period, tariffs, folder, acct))
    return out


def bill_row(bill):
    row = [bill["account"], fmt_kwh(bill["import_kwh"]), fmt_kwh(bill["export_kwh"])]
    return row + [fmt_money(bill[c]) for c in BILL_COLUMNS[3:]]


def line_row(account, line):
    qty = str(line.quantity) if line.kind == "standing" else fmt_kwh(line.quantity)
    return [account, line.kind, line.version, line.item, qty, str(line.rate), fmt_money(line.amount)]


def write_outputs(results, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "bills.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(BILL_COLUMNS)
        for bill, _ in results:
            w.writerow(bill_row(bill))
    with open(os.path.join(out_dir, "lines.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(LINE_COLUMNS)
        for bill, lines in results:
            for line in sorted(lines, key=lambda l: (l.kind, l.version, l.item)):
                w.writerow(line_row(bill["account"], line))


# ---- audit ----
REASONS = {"import_kwh": "IMPORT_USAGE", "export_kwh": "EXPORT_USAGE", "energy": "ENERGY_CHARGE",
           "standing": "STANDING_CHARGE", "net": "ARITHMETIC", "vat": "VAT", "credit": "EXPORT_CREDIT",
           "total": "ARITHMETIC"}


def same(a, b):
    try:
        return Decimal(a) == Decimal(b)
    except (InvalidOperation, ValueError):
        return a == b


def audit(folder, vendor_csv, out_csv):
    ours = {row[0]: row for row in (bill_row(b) for b, _ in bill_period(folder))}
    with open(vendor_csv, newline="", encoding="utf-8") as f:
        theirs = {}
        for row in csv.DictReader(f):
            row = {k.strip(): (v or "").strip() for k, v in row.items()}
            theirs[row["account"]] = [row.get(c, "") for c in BILL_COLUMNS]
    findings = []
    for acct in sorted(set(ours) | set(theirs)):
        if acct not in theirs:
            findings.append([acct, "MISSING_BILL", "total", "", ours[acct][-1]])
            continue
        if acct not in ours:
            findings.append([acct, "UNKNOWN_ACCOUNT", "total", theirs[acct][-1], ""])
            continue
        for i, col in enumerate(BILL_COLUMNS[1:], 1):
            if not same(theirs[acct][i], ours[acct][i]):
                findings.append([acct, REASONS[col], col, theirs[acct][i], ours[acct][i]])
                break
    d = os.path.dirname(out_csv)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(out_csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["account", "reason", "field", "reported", "corrected"])
        w.writerows(findings)



def main(argv=None):
    p = argparse.ArgumentParser(prog="bill.py", description="Retail-energy bills from smart-meter reads.")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="bill a period folder")
    r.add_argument("period_dir")
    r.add_argument("out_dir")
    a = sub.add_parser("audit", help="audit another supplier's bills.csv")
    a.add_argument("period_dir")
    a.add_argument("vendor_csv")
    a.add_argument("out_csv")
    args = p.parse_args(argv)
    if args.cmd == "run":
        write_outputs(bill_period(args.period_dir), args.out_dir)
    else:
        audit(args.period_dir, args.vendor_csv, args.out_csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
