"""Hidden period folders for the payroll grader, built from a seeded random.Random. Expected run
outputs come from payref.py (the grader's own reference); audit registers are made by planting one
named vendor error per employee and recording the finding it causes."""
import csv
import io
import json
from datetime import date, timedelta

import payref

BRACKET_SETS = [
    [["0", "0"], ["12000", "0.10"], ["45000", "0.22"], ["95000", "0.32"]],
    [["0", "0"], ["10500", "0.12"], ["40000", "0.20"], ["80000", "0.30"], ["150000", "0.38"]],
    [["0", "0.05"], ["20000", "0.15"], ["60000", "0.25"]],
]
PREMIUMS = ["1.35", "2.15", "1.85", "2.35", "1.65"]
REG_COLS = ["employee_id"] + payref.ORDER


def table(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode()


def hm(minutes):
    minutes %= 1440
    return "%02d:%02d" % (minutes // 60, minutes % 60)


def quarter(rng, lo_h, hi_h):
    return 15 * rng.randint(int(lo_h * 4), int(hi_h * 4))


def day_shifts(rng, style):
    """[(start, end, break)] of one day in a style."""
    if style == "day":
        s, n, b = quarter(rng, 7, 9), quarter(rng, 8, 8.75), 30
    elif style == "long":
        s, n, b = quarter(rng, 6, 8), quarter(rng, 10, 12.5), rng.choice([30, 45])
    elif style == "night":
        s, n, b = quarter(rng, 20, 22.5), quarter(rng, 8, 10), rng.choice([30, 45])
    elif style == "evening":
        s, n, b = quarter(rng, 14, 16.5), quarter(rng, 8, 9.25), rng.choice([15, 30])
    elif style == "early":
        s, n, b = quarter(rng, 3.5, 5.5), quarter(rng, 8, 9.5), 30
    elif style == "split":
        a = quarter(rng, 5.5, 7)
        s2 = quarter(rng, 16, 18)
        return [(a, a + quarter(rng, 3.5, 4.5), 0), (s2, s2 + quarter(rng, 4, 5.5), rng.choice([0, 15]))]
    else:
        return []
    return [(s, s + n, b)]


def schedule(rng, start, heavy):
    """Shift rows over the two weeks (and a stray row dated the day before the period)."""
    rows = []
    styles = ["day", "long", "night", "evening", "early", "split"]
    for week in (0, 1):
        ndays = rng.choice([5, 6, 6, 7]) if heavy else rng.choice([4, 5, 5])
        days = sorted(rng.sample(range(7), ndays))
        for k in days:
            style = rng.choice(styles if heavy else ["day", "day", "evening", "night", "early"])
            for s, e, b in day_shifts(rng, style):
                rows.append((start + timedelta(days=7 * week + k), s, e, b))
    rows.append((start - timedelta(days=1), 480, 960, 30))
    return rows


def money(rng, lo, hi):
    return "%.2f" % (rng.randint(int(lo * 100), int(hi * 100)) / 100)


def build(rng, kind, january=None, vendor=False, first_day=None):
    """One period folder: (files {name: bytes}, answer). kinds: hours, salaried, deductions, mixed, audit.
    With vendor (always for audit) the folder also holds vendor/register.csv and the answer its findings."""
    if january is None:
        january = kind == "deductions" and rng.random() < 0.5
    if january:
        start = date(2026, 12, 21) + timedelta(days=7 * rng.choice([0, 1]))
    else:
        start = date(2026, 1, 5) + timedelta(days=14 * rng.randint(2, 20))
    if first_day is not None:
        start = first_day
    end = start + timedelta(days=13)
    pay = end + timedelta(days=rng.choice([3, 5]))
    weekdays = [start + timedelta(days=i) for i in range(14) if (start + timedelta(days=i)).weekday() < 5]
    holidays = sorted(set(rng.sample(weekdays, rng.choice([1, 2] if kind in ("salaried", "mixed", "audit") else [0, 1]))))
    if january:
        holidays = sorted({h for h in (date(2026, 12, 25), date(2027, 1, 1)) if start <= h <= end} | set(holidays))
    cap = rng.choice(["6000.00", "7500.00", "5400.00"])
    company = {"name": "Client %d" % rng.randint(100, 999), "holidays": [h.isoformat() for h in holidays],
               "overtime": {"daily_hours": "8", "weekly_hours": "40", "multiplier": "1.5"},
               "night": {"premium": rng.choice(PREMIUMS)}, "pension_annual_cap": cap,
               "tax": {"brackets": rng.choice(BRACKET_SETS), "supplemental_rate": rng.choice(["0.22", "0.25", "0.20"])}}
    period = {"period_start": start.isoformat(), "period_end": end.isoformat(), "pay_date": pay.isoformat(),
              "periods_per_year": 26}
    n = {"hours": 9, "salaried": 10, "deductions": 10, "mixed": 12, "audit": 14}[kind]
    ids = ["E%03d" % i for i in rng.sample(range(100, 999), n + 1)]
    emps, sheets, ytd, retro = [], [], [], []
    year = pay.year
    for i, eid in enumerate(ids):
        salaried = {"hours": 0.1, "salaried": 0.6, "deductions": 0.35, "mixed": 0.35, "audit": 0.45}[kind] > rng.random()
        if i == n:  # one employee gone before the period: in no output
            salaried, hire, term = rng.random() < 0.5, start - timedelta(days=400), start - timedelta(days=rng.randint(1, 20))
        else:
            hire, term = start - timedelta(days=rng.randint(30, 2000)), None
            moved = {"hours": 0.2, "salaried": 0.6, "deductions": 0.15, "mixed": 0.4, "audit": 0.5}[kind]
            if rng.random() < moved:
                if rng.random() < 0.5:
                    hire = start + timedelta(days=rng.randint(1, 12))
                else:
                    term = start + timedelta(days=rng.randint(0, 12))
        rate = str(rng.randint(38, 130) * 1000 + rng.choice([0, 500, 250])) if salaried else money(rng, 17, 46)
        health = rng.choice(["0.00", "45.50", "62.25", "88.10", "120.00"])
        post = rng.choice(["0.00", "0.00", "25.00", "40.00", "75.50"])
        emps.append([eid, "Worker %s" % eid[1:], "salaried" if salaried else "hourly", rate, hire.isoformat(),
                     term.isoformat() if term else "", rng.choice(["3", "4", "5", "6", "7.5"]), health, post])
        if not salaried:
            for day, s, e, b in schedule(rng, start, kind in ("hours", "mixed", "audit") or rng.random() < 0.4):
                sheets.append([eid, day.isoformat(), hm(s), hm(e), str(b)])
            if (kind in ("salaried", "mixed", "audit") and rng.random() < 0.6) or rng.random() < 0.1:
                for _ in range(rng.choice([1, 1, 2])):
                    retro.append([eid, "%.2f" % (quarter(rng, 20, 80) / 60), "%.2f" % (quarter(rng, 0, 10) / 60),
                                  "%.2f" % (float(rate) - rng.randint(35, 180) / 100), rate])
        # year to date
        r = rng.random()
        near_cap = {"deductions": 0.6, "mixed": 0.3, "audit": 0.3}.get(kind, 0.1)
        ytd_year = year - 1 if january else year
        if january or r < 0.9:
            ypen = float(cap) - rng.randint(0, 20000) / 100 if rng.random() < near_cap else rng.randint(0, 300000) / 100
            carry = "0.00"
            if rng.random() < {"deductions": 0.3, "mixed": 0.25, "audit": 0.3}.get(kind, 0.05):
                # a shortfall carried in, mostly larger than a period's pay
                carry = money(rng, 50, 900) if rng.random() < 0.3 else money(rng, 2500, 6000)
            ytd.append([eid, str(ytd_year), money(rng, 20000, 60000), "%.2f" % ypen, money(rng, 3000, 12000), carry])
        if kind == "deductions" and rng.random() < 0.2:
            emps[-1][8] = money(rng, 900, 2500)  # a large post-tax deduction: likely a shortfall
    rng.shuffle(emps)
    rng.shuffle(sheets)
    files = {
        "period.json": (json.dumps(period, indent=1) + "\n").encode(),
        "company.json": (json.dumps(company, indent=1) + "\n").encode(),
        "employees.csv": table(["employee_id", "name", "pay_type", "rate", "hire_date", "term_date", "pension_pct", "health", "post_tax"], emps),
        "timesheets.csv": table(["employee_id", "date", "start", "end", "break_min"], sheets),
        "ytd.csv": table(["employee_id", "year", "gross", "pension", "withholding", "carry_forward"], ytd),
    }
    if retro or rng.random() < 0.5:
        files["retro.csv"] = table(["employee_id", "regular_hours", "overtime_hours", "old_rate", "new_rate"], retro)
    ref = reference(files)
    want = answer(ref)
    if kind == "audit" or vendor:
        files["vendor/register.csv"], found = plant(rng, ref)
        want.update(found)
    return files, want


def rows_of(data):
    return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(io.StringIO(data.decode()))]


def reference(files):
    return payref.Ref(json.loads(files["period.json"]), json.loads(files["company.json"]),
                      rows_of(files["employees.csv"]), rows_of(files["timesheets.csv"]), rows_of(files["ytd.csv"]),
                      rows_of(files["retro.csv"]) if "retro.csv" in files else [])


def answer(ref):
    """Expected register, lines and ytd rows as strings."""
    reg, lines, ytd = {}, {}, {}
    for eid, (row, ls, y) in ref.run().items():
        reg[eid] = tuple(payref.two(row[c]) for c in payref.ORDER)
        for code, h, a in ls:
            lines[(eid, code)] = (payref.two(h), payref.two(a))
        ytd[eid] = (y[0],) + tuple(payref.two(v) for v in y[1:])
    return {"register": reg, "lines": lines, "ytd": ytd}


def applicable(ref, e, mine):
    """Vendor errors that change this employee's register row."""
    out = []
    for flaw in ("double_ot", "night_same_day", "night_per_shift", "calendar", "no_ytd_cap", "no_health",
                 "flat_bracket", "retro_annual", "drop_shortfall"):
        if payref.first_difference(e, mine, ref.pay(e, (flaw,))[0]):
            out.append(flaw)
    return out


def plant(rng, ref):
    """A vendor register with one planted error for most employees; returns (csv bytes, findings)."""
    findings, vendor, used = set(), {}, {}
    paid = ref.paid()
    order = list(range(len(paid)))
    rng.shuffle(order)
    # the employees with the fewest applicable errors choose first; each takes the error used least
    # so far, so that every kind (and every reason) shows up
    options = {i: applicable(ref, paid[i], ref.pay(paid[i])[0]) for i in order}
    order.sort(key=lambda i: len(options[i]) or 99)
    for i in order:
        e = paid[i]
        mine = ref.pay(e)[0]
        theirs = mine
        flaws = options[i]
        if flaws and rng.random() < 0.85:
            low = min(used.get(f, 0) for f in flaws)
            flaw = rng.choice([f for f in flaws if used.get(f, 0) == low])
            used[flaw] = used.get(flaw, 0) + 1
            theirs = ref.pay(e, (flaw,))[0]
            reason, field, rep, cor = payref.first_difference(e, mine, theirs)
            findings.add((e["employee_id"], reason, field, rep, cor))
        vendor[e["employee_id"]] = theirs
    rows = [[eid] + [payref.two(vendor[eid][c]) for c in payref.ORDER] for eid in sorted(vendor)]
    return table(REG_COLS, rows), {"findings": findings}
