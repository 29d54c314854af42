"""The grader's own billing reference, written from BILLING.md alone: exact Fractions and integer
cents, reads walked row by row as epoch seconds, band windows tested modulo a day. Works on the
in-memory files of a period folder (name -> bytes)."""
import calendar
import csv
import io
import json
from datetime import date, datetime, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

HALF_HOUR = 1800
DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ORDER = ("import_kwh", "export_kwh", "energy", "standing", "net", "vat", "credit", "total")


def q3(wh):
    return "%d.%03d" % (wh // 1000, wh % 1000)


def c2(cents):
    sign = "-" if cents < 0 else ""
    return "%s%d.%02d" % (sign, abs(cents) // 100, abs(cents) % 100)


def to_cents(x):
    """Half-even to the cent of an exact amount in currency units."""
    return round(Fraction(x) * 100)


def clock(text):
    hh, mm = text.split(":")
    return 60 * int(hh) + int(mm)


def epoch_of(text):
    return calendar.timegm(datetime.strptime(text.strip().rstrip("Z"), "%Y-%m-%dT%H:%M").timetuple())


def half_hours(text, modulus_holder):
    """Rows of a read file: (epoch, Wh, flag); the digit header sets the register modulus."""
    rows = []
    for raw in text.splitlines():
        raw = raw.strip()
        if raw.startswith("#"):
            k, _, v = raw[1:].partition(":")
            if k.strip().lower() == "digits":
                modulus_holder[0] = 1000 * 10 ** int(v.strip())
            continue
        if not raw or raw.lower().startswith("timestamp"):
            continue
        ts, val, flag = (p.strip() for p in raw.split(","))
        wh = Fraction(val) * 1000
        assert wh.denominator == 1
        rows.append((epoch_of(ts), int(wh), flag.upper()))
    return rows


def slot_energy(text):
    """{slot start epoch: Wh}: every gap between two used reads, each of its n slots getting
    ceil((d - j) / n) Wh for j = 0..n-1 (the first d mod n slots one Wh more)."""
    modulus = [10 ** 9]
    rows = half_hours(text, modulus)
    energy = {}
    prev = None  # (epoch, Wh) the next interval starts from
    for t, wh, flag in rows:
        if flag == "E":
            continue
        if flag == "X" and prev is not None and prev[0] == t:
            prev = (t, wh)
            continue
        if prev is not None:
            n = (t - prev[0]) // HALF_HOUR
            d = (wh - prev[1]) % modulus[0]
            for j in range(n):
                energy[prev[0] + j * HALF_HOUR] = -((j - d) // n)
        prev = (t, wh)
    return energy


class Ref:
    def __init__(self, files):
        self.files = files
        per = json.loads(files["period.json"])
        self.zone = ZoneInfo(per["tz"])
        self.first = date.fromisoformat(per["start"])
        self.last = date.fromisoformat(per["end"])
        self.vat = Fraction(per["vat_rate"])
        self.hols = set(per.get("holidays", []))
        self.ndays = (self.last - self.first).days + 1
        self.tariffs = json.loads(files["tariffs.json"])
        midnight = lambda d: int(datetime(d.year, d.month, d.day, tzinfo=self.zone).timestamp())
        self.lo = midnight(self.first)
        self.hi = midnight(self.last + timedelta(days=1))

    def version(self, tid, day_iso):
        return max((v for v in self.tariffs[tid] if v["from"] <= day_iso), key=lambda v: v["from"])

    def band(self, v, local):
        iso = local.date().isoformat()
        kind = "hol" if iso in self.hols else DAY_NAMES[local.weekday()]
        m = local.hour * 60 + local.minute
        for b in v["bands"]:
            lo, hi = clock(b["from"]), clock(b["to"])
            if kind in b["days"] and (m - lo) % 1440 < (hi - lo) % 1440:
                return b["name"], b["rate"]
        return v["default"]["name"], v["default"]["rate"]

    def meter(self, mid):
        e = slot_energy(self.files["reads/%s.csv" % mid].decode())
        return {t: w for t, w in e.items() if self.lo <= t < self.hi}

    def account(self, row):
        tid = row["tariff"]
        days = {}
        for i in range(self.ndays):
            iso = (self.first + timedelta(days=i)).isoformat()
            f = self.version(tid, iso)["from"]
            days[f] = days.get(f, 0) + 1
        use = self.meter(row["meter"])
        lines = {}
        tou = {}
        seg = {}
        for t in sorted(use):
            local = datetime.fromtimestamp(t, self.zone)
            v = self.version(tid, local.date().isoformat())
            if v["kind"] == "tou":
                name, rate = self.band(v, local)
                k = (v["from"], name)
                tou[k] = (tou.get(k, (0, rate))[0] + use[t], rate)
            else:
                seg[v["from"]] = seg.get(v["from"], 0) + use[t]
        for (f, name), (wh, rate) in tou.items():
            if wh:
                lines[("energy", f, name)] = (wh, to_cents(Fraction(wh, 1000) * Fraction(rate)))
        for f, wh in seg.items():
            v = [x for x in self.tariffs[tid] if x["from"] == f][0]
            floor_wh = 0
            left = wh
            for i, b in enumerate(v["blocks"]):
                if b["upto"] is None:
                    room = left
                else:
                    top = round(Fraction(b["upto"]) * 1000 * days.get(f, 0) / self.ndays)
                    room = max(0, min(left, top - floor_wh))
                    floor_wh = max(floor_wh, top)
                if room:
                    lines[("energy", f, "block%d" % (i + 1))] = (room, to_cents(Fraction(room, 1000) * Fraction(b["rate"])))
                left -= room
        for f, n in days.items():
            v = [x for x in self.tariffs[tid] if x["from"] == f][0]
            lines[("standing", f, "days")] = (n, to_cents(n * Fraction(v["standing"])))
        energy = sum(a for (k, _, _), (_, a) in lines.items() if k == "energy")
        standing = sum(a for (k, _, _), (_, a) in lines.items() if k == "standing")
        net = energy + standing
        vat = to_cents(net * self.vat / 100)
        exp_wh = 0
        credit = 0
        if row.get("export_meter"):
            exp_wh = sum(self.meter(row["export_meter"]).values())
            credit = -to_cents(Fraction(exp_wh, 1000) * Fraction(row["export_rate"]))
            lines[("export", "", "export")] = (exp_wh, credit)
        bill = (q3(sum(use.values())), q3(exp_wh), c2(energy), c2(standing), c2(net), c2(vat), c2(credit),
                c2(net + vat + credit))
        shown = {}
        for (k, f, item), (qty, amt) in lines.items():
            shown[(row["account"], k, f, item)] = (str(qty) if k == "standing" else q3(qty), c2(amt))
        return bill, shown


def accounts_of(files):
    return [{k: (v or "").strip() for k, v in r.items()} for r in csv.DictReader(io.StringIO(files["accounts.csv"].decode()))]


def expected(files):
    """{"bills": {account: row tuple (ORDER)}, "lines": {(account, kind, version, item): (qty, amount)}}"""
    ref = Ref(files)
    bills, lines = {}, {}
    for row in accounts_of(files):
        b, l = ref.account(row)
        bills[row["account"]] = b
        lines.update(l)
    return {"bills": bills, "lines": lines}
