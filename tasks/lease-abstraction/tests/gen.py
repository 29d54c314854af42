"""Hidden lease portfolios built by construction.

Every term is planned first (parties, dates, rent mechanism, options, amendments with their
planted effect and any planted inconsistency); the expected abstract, rent roll, critical dates and
issues are derived from the plan alone; only then are the documents rendered as text in one of
three drafting styles. Nothing here parses the rendered text.
"""
import calendar
import datetime as dt
from fractions import Fraction

DAY = dt.timedelta(days=1)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
ORD_WORDS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
             "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth"]
LANDLORDS = ["Harbour Estates Limited", "Calder Property Holdings plc", "Westgate Land Limited",
             "Northbank Investments Limited", "Ashdown Real Estate LLP", "Kestrel Commercial Limited"]
TENANTS = ["Northgate Retail Limited", "Brightwater Foods Limited", "Pennine Logistics Limited",
           "Orchard Dental Group Limited", "Meridian Software Limited", "Fenwick & Hale LLP",
           "Tallis Print Services Limited", "Copperleaf Cafes Limited", "Quayside Fitness Limited",
           "Riverside Opticians Limited", "Saltmarsh Design Studio Limited", "Granary Books Limited"]
STREETS = ["Harbour Road", "Mill Lane", "Station Approach", "Kings Parade", "Wharf Street",
           "Canal Side", "Market Place", "Victoria Court", "Foundry Yard", "Queens Walk"]
CITIES = ["Leeds", "Bristol", "York", "Norwich", "Exeter", "Chester", "Derby", "Bath"]
FILE_KIND = {"deed": "deed-of-variation", "letter": "side-letter"}
HOLIDAY_NAMES = ["Bank Holiday", "Estate Closure Day", "Public Holiday"]


# ---------------------------------------------------------------- calendar arithmetic (plan side)

def shift_months(d, n):
    total = d.year * 12 + d.month - 1 + n
    y, m0 = divmod(total, 12)
    return dt.date(y, m0 + 1, min(d.day, calendar.monthrange(y, m0 + 1)[1]))


def iso(d):
    return d.isoformat()


def is_working(d, hol):
    return d.weekday() < 5 and d not in hol


def deadline(ref, notice, hol):
    """The last day notice may be served, counted back from ref (an expiry or break date)."""
    unit, n = notice
    if unit == "m":
        d = shift_months(ref, -n)
        while not is_working(d, hol):
            d -= DAY
        return d
    # n-th working day before ref: scan days backwards, counting working days seen.
    seen, d = 0, ref
    while True:
        d -= DAY
        if is_working(d, hol):
            seen += 1
            if seen == n:
                return d


def cents_half_up(x):
    """x pounds (Fraction) as integer pence, halves rounded up."""
    c = x * 100
    return (c.numerator * 2 + c.denominator) // (2 * c.denominator)


def round_half_up(x):
    """A non-negative Fraction rounded to an integer, halves up."""
    return (x.numerator * 2 + x.denominator) // (2 * x.denominator)


def money_text(c):
    return "%d.%02d" % divmod(c, 100)


# ---------------------------------------------------------------- rendering helpers

def date_text(d, style):
    if style == "iso":
        return iso(d)
    if style == "long":
        return "%d %s %d" % (d.day, MONTHS[d.month - 1], d.year)
    n = d.day
    suf = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "the %d%s day of %s %d" % (n, suf, MONTHS[d.month - 1], d.year)


def pounds_text(c, style):
    whole, pence = divmod(c, 100)
    grouped = "{:,}".format(whole)
    if style == "sym":
        return "\u00a3%s.%02d" % (grouped, pence)
    if style == "gbp":
        return "GBP %s" % grouped if pence == 0 else "GBP %s.%02d" % (grouped, pence)
    return "\u00a3%d.%02d" % (whole, pence)


def pct_text(p):
    """A Fraction percentage as a short decimal: 3, 2.5, 3.25."""
    s = "%.2f" % (p.numerator / p.denominator)
    return s.rstrip("0").rstrip(".")


def ordinal_num(k):
    suf = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return "%d%s" % (k, suf)


def notice_text(notice):
    unit, n = notice
    return "%d Business Days'" % n if unit == "bd" else "%d months'" % n


# ---------------------------------------------------------------- planning

def plan_cpi(rng):
    """Monthly index (integer tenths) from 2014-01 to 2045-12 with calm and hot spells."""
    series, v, ym = {}, 1000 + rng.randint(0, 200), (2014, 1)
    hot = 0
    while ym <= (2045, 12):
        series[ym] = v
        if hot == 0 and rng.random() < 0.04:
            hot = rng.randint(6, 14)
        step = rng.randint(4, 11) if hot else rng.randint(-3, 5)
        hot = max(0, hot - 1)
        v = max(500, v + step)
        y, m = ym
        ym = (y + 1, 1) if m == 12 else (y, m + 1)
    return series


def cpi_uplift(series, review, floor, cap):
    y, m = review.year, review.month
    t = y * 12 + m - 1 - 3
    b = t - 12
    now = series[(t // 12, t % 12 + 1)]
    base = series[(b // 12, b % 12 + 1)]
    u = Fraction(now, base) - 1
    return min(max(u, Fraction(floor, 100)), Fraction(cap, 100))


def plan_lease(rng, lid, used_tenants, kind, esc_kind=None):
    style = rng.choice(["A", "B", "C"])
    cy, cm, cd = rng.randint(2019, 2026), rng.randint(1, 12), rng.choice([1, 1, 25, 24, 29, 6, 14, 28])
    comm = dt.date(cy, cm, 28 if cm == 2 and cd > 28 else cd)
    signed = comm - DAY * rng.randint(0, 75)
    years = rng.randint(4, 12)
    months = 6 if rng.random() < 0.2 else 0
    tenant = rng.choice([t for t in TENANTS if t not in used_tenants])
    used_tenants.add(tenant)
    esc_kind = esc_kind or rng.choice(["fixed", "stepped", "cpi"])
    rent0 = rng.randint(250, 4000) * 10000 + (rng.choice([0, 0, 50, 2500, 7525]) if esc_kind != "stepped" else 0)
    lease = {
        "id": lid, "style": style, "signed": signed, "landlord": rng.choice(LANDLORDS), "tenant": tenant,
        "premises": "Unit %d%s, %d %s, %s" % (rng.randint(1, 30), rng.choice(["", "A", "B", "C"]),
                                              rng.randint(2, 240), rng.choice(STREETS), rng.choice(CITIES)),
        "area": rng.randint(6, 180) * 50 + rng.choice([0, 0, 25]),
        "comm": comm, "years": years, "months": months, "explicit_expiry": rng.random() < 0.4,
        "rent0": rent0, "esc": None, "renewal": None, "breaks": [], "break_notice": None,
        "date_style": rng.choice(["iso", "long", "ordinal"]), "money_style": rng.choice(["sym", "gbp", "plain"]),
    }
    base_years = years + (1 if months else 0)
    if esc_kind == "fixed":
        lease["esc"] = ("fixed", Fraction(rng.choice([200, 250, 275, 300, 325, 350, 400, 450]), 100))
    elif esc_kind == "cpi":
        floor = rng.choice([0, 1, 1, 2, 2])
        lease["esc"] = ("cpi", floor, floor + rng.choice([2, 3, 3, 4]))
    else:
        steps, y = [], 1
        rent = rent0
        cover = base_years if rng.random() < 0.75 or kind != "issues" else base_years - rng.randint(1, 2)
        cover = max(cover, 3)
        while y <= cover:
            span = min(rng.randint(1, 4), cover - y + 1)
            steps.append((y, y + span - 1, rent))
            rent += rng.randint(5, 40) * 1000 * (1 if rent < 10 ** 7 else 10)
            y += span
        lease["esc"] = ("stepped", steps)
    if rng.random() < 0.75:
        notice = ("bd", rng.choice([20, 40, 60, 65, 90, 120])) if rng.random() < 0.6 else ("m", rng.choice([3, 6, 9, 12]))
        lease["renewal"] = (rng.choice([3, 5, 5, 10]), notice)
    if years >= 5 and rng.random() < 0.6:
        k = rng.randint(2, years - 2)
        lease["breaks"] = [k] if rng.random() < 0.6 or k + 2 > years - 1 else [k, k + 2]
        lease["break_notice"] = ("m", rng.choice([3, 6, 6, 9, 12])) if rng.random() < 0.6 else ("bd", rng.choice([30, 60, 90]))
    return lease


def base_expiry(lease):
    return shift_months(lease["comm"], 12 * lease["years"] + lease["months"]) - DAY


def plan_amendments(rng, lease, kind, ids, counter):
    """Amendments for one lease: (file, doc date, doc kind, ref id, tenant text, recital date, changes, planted code)."""
    out = []
    comm, signed = lease["comm"], lease["signed"]
    expiry = base_expiry(lease)
    n = {"plain": 0, "amend": rng.randint(1, 3), "rentroll": rng.randint(0, 2), "dates": rng.randint(0, 2),
         "issues": rng.randint(1, 2)}[kind]
    day = signed
    total_years = lease["years"] + (1 if lease["months"] else 0)
    for i in range(n):
        # The first amendment of an 'amend' portfolio often predates commencement.
        if i == 0 and kind in ("amend", "issues") and comm > signed + DAY and rng.random() < 0.6:
            day = signed + DAY * rng.randint(1, (comm - signed).days - 1) if (comm - signed).days > 1 else signed
        else:
            day = day + DAY * rng.randint(20, 500)
        if day >= expiry:
            break
        changes = []
        options = ["rent", "extend", "area", "notice", "break"]
        for what in rng.sample(options, rng.randint(1, 3)):
            if what == "rent":
                k = rng.randint(1, total_years) if day < comm else rng.randint(2, total_years)
                start = shift_months(comm, 12 * (k - 1))
                if start > day or k == 1:
                    changes.append(("rent", k, rng.randint(250, 4000) * 10000 + rng.choice([0, 0, 50])))
            elif what == "extend":
                extra = rng.randint(1, 3)
                total_years_new = total_years + extra
                changes.append(("extend", shift_months(comm, 12 * total_years_new) - DAY, total_years_new))
                total_years = total_years_new
            elif what == "area":
                changes.append(("area", rng.randint(6, 180) * 50))
            elif what == "notice" and lease["renewal"] is not None:
                changes.append(("notice", ("bd", rng.choice([20, 30, 45, 60, 75])) if rng.random() < 0.6 else ("m", rng.choice([3, 6, 12]))))
            elif what == "break" and lease["breaks"]:
                changes.append(("nobreak",))
        if not changes:
            changes.append(("area", rng.randint(6, 180) * 50))
        for c in changes:
            if c[0] == "extend":
                expiry = c[1]
        counter[0] += 1
        dk = rng.choice(["deed", "letter"])
        out.append({"file": "%s-%02d.txt" % (FILE_KIND[dk], counter[0]), "date": day,
                    "kind": dk, "ref": lease["id"], "tenant": lease["tenant"],
                    "recital": comm, "changes": changes, "code": None,
                    "date_style": rng.choice(["iso", "long", "ordinal"]), "money_style": rng.choice(["sym", "gbp", "plain"])})
    if kind == "issues":
        planted = rng.sample(["TENANT_MISMATCH", "COMMENCEMENT_MISMATCH", "AFTER_EXPIRY", "UNKNOWN_LEASE", None], 2)
        for code in planted:
            if code in ("TENANT_MISMATCH", "COMMENCEMENT_MISMATCH") and out:
                a = rng.choice(out)
                if a["code"] is None:
                    a["code"] = code
                    if code == "TENANT_MISMATCH":
                        a["tenant"] = rng.choice([t for t in TENANTS if t != lease["tenant"]])
                    else:
                        a["recital"] = comm + DAY * rng.choice([-365, -1, 1, 31, 366])
            elif code in ("AFTER_EXPIRY", "UNKNOWN_LEASE"):
                counter[0] += 1
                late = expiry + DAY * rng.randint(1, 400) if code == "AFTER_EXPIRY" else day + DAY * rng.randint(5, 200)
                ref = lease["id"]
                if code == "UNKNOWN_LEASE":
                    while ref in ids:
                        ref = "L-%04d" % rng.randint(1000, 9999)
                    ids.add(ref)
                dk = rng.choice(["deed", "letter"])
                out.append({"file": "%s-%02d.txt" % (FILE_KIND[dk], counter[0]), "date": late,
                            "kind": dk, "ref": ref, "tenant": lease["tenant"],
                            "recital": comm, "changes": [("extend", shift_months(comm, 12 * (total_years + 2)) - DAY, total_years + 2)] if code == "AFTER_EXPIRY" else [("area", 900)],
                            "code": code, "date_style": rng.choice(["iso", "long", "ordinal"]),
                            "money_style": rng.choice(["sym", "gbp", "plain"])})
    return out


# ---------------------------------------------------------------- expected values from the plan

def shown(lease, who):
    return lease[who].upper() if lease["style"] == "A" else lease[who]


def settle(lease, amends, hol, cpi):
    """The abstract record of one lease (plan side), its yearly rents and its issues."""
    expiry = base_expiry(lease)
    area = lease["area"]
    renewal = lease["renewal"]
    breaks = list(lease["breaks"])
    overrides = {}
    applied = [lease["file"]]
    issues = []
    for a in sorted(amends, key=lambda a: (a["date"], a["file"])):
        if a["code"] == "UNKNOWN_LEASE":
            continue
        if a["date"] > expiry:
            issues.append((a["file"], lease["id"], "AFTER_EXPIRY"))
            continue
        if a["code"] in ("TENANT_MISMATCH", "COMMENCEMENT_MISMATCH"):
            issues.append((a["file"], lease["id"], a["code"]))
        applied.append(a["file"])
        for c in a["changes"]:
            if c[0] == "rent":
                overrides[c[1]] = c[2]
            elif c[0] == "extend":
                expiry = c[1]
            elif c[0] == "area":
                area = c[1]
            elif c[0] == "notice":
                renewal = (renewal[0], c[1])
            elif c[0] == "nobreak":
                breaks = []
    comm = lease["comm"]
    nyears = 0
    while shift_months(comm, 12 * nyears) <= expiry:
        nyears += 1
    rents = []
    esc = lease["esc"]
    step_start = {}
    if esc[0] == "stepped":
        step_start = {s[0]: s[2] for s in esc[1]}
        if esc[1][-1][1] < nyears:
            issues.append((lease["file"], lease["id"], "RENT_SCHEDULE_GAP"))
    for k in range(1, nyears + 1):
        if k in overrides:
            r = overrides[k]
        elif k == 1:
            r = lease["rent0"]
        elif esc[0] == "fixed":
            r = round_half_up(rents[-1] * (1 + esc[1] / 100))
        elif esc[0] == "cpi":
            r = round_half_up(rents[-1] * (1 + cpi_uplift(cpi, shift_months(comm, 12 * (k - 1)), esc[1], esc[2])))
        else:
            r = step_start.get(k, rents[-1])
        rents.append(r)
    schedule = []
    for k, r in enumerate(rents, 1):
        start = shift_months(comm, 12 * (k - 1))
        end = min(shift_months(comm, 12 * k) - DAY, expiry)
        if schedule and schedule[-1]["annual_rent"] == money_text(r):
            schedule[-1]["end"] = iso(end)
        else:
            schedule.append({"start": iso(start), "end": iso(end), "annual_rent": money_text(r)})
    rec = {
        # Names are reported as the base lease writes them (style A writes them in capitals).
        "lease_id": lease["id"], "landlord": shown(lease, "landlord"), "tenant": shown(lease, "tenant"),
        "premises": lease["premises"], "area_sqft": area, "commencement": iso(comm), "expiry": iso(expiry),
        "rent_schedule": schedule,
        "renewal": None if renewal is None else {"term_years": renewal[0], "notice_deadline": iso(deadline(expiry, renewal[1], hol))},
        "breaks": [{"date": iso(shift_months(comm, 12 * k)), "notice_deadline": iso(deadline(shift_months(comm, 12 * k), lease["break_notice"], hol))} for k in breaks],
        "documents": applied,
    }
    return rec, rents, issues


def quarter_rent(comm, expiry, rents, q):
    """Rent for quarter (year, n): day by day, annual rent / 365, rounded once per quarter."""
    y, n = q
    d = dt.date(y, 3 * n - 2, 1)
    end = shift_months(d, 3)
    total, touched = Fraction(0), False
    k, nxt = 1, shift_months(comm, 12)
    while d < end:
        if comm <= d <= expiry:
            while d >= nxt:
                k += 1
                nxt = shift_months(comm, 12 * k)
            total += Fraction(rents[k - 1], 365 * 100)
            touched = True
        d += DAY
    return touched, cents_half_up(total)


def critical_dates(rec, lo, hi):
    out = []
    def add(day, ev):
        if lo <= day <= hi:
            out.append((iso(day), rec["lease_id"], ev))
    comm = dt.date.fromisoformat(rec["commencement"])
    exp = dt.date.fromisoformat(rec["expiry"])
    add(exp, "EXPIRY")
    k = 1
    while shift_months(comm, 12 * k) <= exp:
        add(shift_months(comm, 12 * k), "RENT_REVIEW")
        k += 1
    if rec["renewal"]:
        add(dt.date.fromisoformat(rec["renewal"]["notice_deadline"]), "RENEWAL_NOTICE")
    for b in rec["breaks"]:
        add(dt.date.fromisoformat(b["date"]), "BREAK")
        add(dt.date.fromisoformat(b["notice_deadline"]), "BREAK_NOTICE")
    return out


# ---------------------------------------------------------------- rendering

def render_lease(L):
    ds, ms = L["date_style"], L["money_style"]
    D = lambda d: date_text(d, ds)
    M = lambda c: pounds_text(c, ms)
    comm, exp = L["comm"], base_expiry(L)
    term = "%d years" % L["years"] + (" and %d months" % L["months"] if L["months"] else "")
    esc = L["esc"]
    st = L["style"]
    lines = []
    if st == "A":
        lines += ["LEASE", "", "Lease Reference: %s" % L["id"], "",
                  'THIS LEASE is dated %s and made between %s (the "Landlord") and %s (the "Tenant").' % (D(L["signed"]), L["landlord"].upper(), L["tenant"].upper()),
                  "", "1. PREMISES",
                  '1.1 The Landlord lets to the Tenant %s (the "Premises"), having a lettable area of %s square feet.' % (L["premises"], "{:,}".format(L["area"])),
                  "", "2. TERM"]
        if L["explicit_expiry"]:
            lines.append('2.1 The term commences on and including %s (the "Term Commencement Date") and expires on and including %s (the "Expiry Date").' % (D(comm), D(exp)))
        else:
            lines.append('2.1 The term is %s commencing on and including %s (the "Term Commencement Date"); the last day of the term is the "Expiry Date".' % (term, D(comm)))
        lines += ["", "3. RENT", "3.1 The initial annual rent is %s, payable quarterly in advance." % M(L["rent0"])]
        if esc[0] == "fixed":
            lines.append("3.2 On each anniversary of the Term Commencement Date the annual rent shall increase by %s per cent of the annual rent payable immediately before that anniversary." % pct_text(esc[1]))
        elif esc[0] == "cpi":
            lines.append("3.2 On each anniversary of the Term Commencement Date (a \"Review Date\") the annual rent shall be increased by the percentage change in the Index between the month falling fifteen months before and the month falling three months before the Review Date, subject to a minimum increase of %d per cent and a maximum increase of %d per cent." % (esc[1], esc[2]))
        else:
            parts = ["for years %d to %d of the Term, %s" % (a, b, M(c)) if a != b else "for year %d of the Term, %s" % (a, M(c)) for a, b, c in esc[1]]
            lines.append("3.2 The annual rent shall be: " + "; ".join(parts) + ".")
        if L["renewal"]:
            lines += ["", "4. RENEWAL", "4.1 The Tenant may renew this Lease for a further term of %d years by giving the Landlord not less than %s written notice before the Expiry Date." % (L["renewal"][0], notice_text(L["renewal"][1]))]
        if L["breaks"]:
            ann = " and the ".join("%s anniversary" % ORD_WORDS[k] for k in L["breaks"])
            lines += ["", "5. BREAK", "5.1 The Tenant may terminate this Lease on the %s of the Term Commencement Date (each a \"Break Date\") by giving the Landlord not less than %s written notice before the Break Date." % (ann, notice_text(L["break_notice"]))]
        lines += ["", "IN WITNESS whereof this Lease has been executed as a deed."]
    elif st == "B":
        def row(k, v):
            return "%s %s %s" % (k, "." * max(3, 22 - len(k)), v)
        lines += ["PARTICULARS OF LEASE", "", row("Reference", L["id"]), row("Date", D(L["signed"])),
                  row("Landlord", L["landlord"]), row("Tenant", L["tenant"]), row("Premises", L["premises"]),
                  row("Lettable Area", "%d sq ft" % L["area"]), row("Commencement Date", D(comm))]
        lines.append(row("Expiry Date", D(exp)) if L["explicit_expiry"] else row("Term", term))
        lines.append(row("Initial Rent", "%s per annum" % M(L["rent0"])))
        if esc[0] == "fixed":
            lines.append(row("Rent Review", "fixed uplift of %s%% per annum on each anniversary, compounded" % pct_text(esc[1])))
        elif esc[0] == "cpi":
            lines.append(row("Rent Review", "CPI on each anniversary; collar %d%%, cap %d%%; index month 3 months before the review date against 15 months before" % (esc[1], esc[2])))
        else:
            lines.append(row("Rent Review", "stepped, see Schedule 1"))
        if L["renewal"]:
            lines.append(row("Renewal Option", "%d years; notice %s before the Expiry Date" % (L["renewal"][0], notice_text(L["renewal"][1]).rstrip("'"))))
        else:
            lines.append(row("Renewal Option", "none"))
        if L["breaks"]:
            lines.append(row("Break Option", "%s anniversaries; notice %s before the Break Date" % (" and ".join(ordinal_num(k) for k in L["breaks"]), notice_text(L["break_notice"]).rstrip("'"))) if len(L["breaks"]) > 1
                         else row("Break Option", "%s anniversary; notice %s before the Break Date" % (ordinal_num(L["breaks"][0]), notice_text(L["break_notice"]).rstrip("'"))))
        else:
            lines.append(row("Break Option", "none"))
        if esc[0] == "stepped":
            lines += ["", "SCHEDULE 1 - STEPPED RENT"]
            for a, b, c in esc[1]:
                lines.append(row("Years %d-%d" % (a, b) if a != b else "Year %d" % a, "%s per annum" % M(c)))
        lines += ["", "The Particulars form part of the Lease annexed."]
    else:
        lines += ["AGREEMENT OF LEASE (ref. %s)" % L["id"], "", "Made %s" % D(L["signed"]), "", "1 DEFINITIONS",
                  '"Landlord" means %s;' % L["landlord"], '"Tenant" means %s;' % L["tenant"],
                  '"Premises" means %s comprising %s square feet;' % (L["premises"], "{:,}".format(L["area"])),
                  '"Commencement Date" means %s;' % D(comm)]
        if L["explicit_expiry"]:
            lines.append('"Term" means the period from and including the Commencement Date to and including %s;' % D(exp))
        else:
            lines.append('"Term" means the period of %s from and including the Commencement Date;' % term)
        lines.append('"Initial Rent" means %s per annum;' % M(L["rent0"]))
        lines += ["", "2 RENT"]
        if esc[0] == "fixed":
            lines.append("2.1 The rent shall be reviewed on each anniversary of the Commencement Date to the rent payable immediately before it increased by %s%%, compounded year on year." % pct_text(esc[1]))
        elif esc[0] == "cpi":
            lines.append("2.1 The rent shall be reviewed on each anniversary of the Commencement Date in line with the Consumer Prices Index (index month three months before the anniversary, compared with fifteen months before), the increase being not less than %d%% and not more than %d%%." % (esc[1], esc[2]))
        else:
            lines.append("2.1 The rent shall be stepped as follows:")
            for a, b, c in esc[1]:
                lines.append("  Rent Years %d-%d: %s per annum" % (a, b, M(c)) if a != b else "  Rent Year %d: %s per annum" % (a, M(c)))
        n = 3
        if L["renewal"]:
            lines += ["", "%d OPTION TO RENEW" % n, "%d.1 Upon not less than %s notice before the expiry of the Term the Tenant may call for a new lease for a term of %d years." % (n, notice_text(L["renewal"][1]), L["renewal"][0])]
            n += 1
        if L["breaks"]:
            lines += ["", "%d TENANT'S BREAK" % n, "%d.1 The Tenant may end the Term on the %s of the Commencement Date upon not less than %s notice before that date." % (n, " or on the ".join("%s anniversary" % ORD_WORDS[k] for k in L["breaks"]), notice_text(L["break_notice"]))]
        lines += ["", "Signed for and on behalf of the Landlord and the Tenant."]
    return "\n".join(lines) + "\n"


def render_amendment(a, landlord):
    D = lambda d: date_text(d, a["date_style"])
    M = lambda c: pounds_text(c, a["money_style"])
    items = []
    for c in a["changes"]:
        if c[0] == "rent":
            items.append("With effect from %s the annual rent is %s." % (D(c[3]) if len(c) > 3 else "{start}", M(c[2])))
        elif c[0] == "extend":
            items.append("The Expiry Date is varied to %s." % D(c[1]))
        elif c[0] == "area":
            items.append("The lettable area of the Premises is varied to %s square feet." % "{:,}".format(c[1]))
        elif c[0] == "notice":
            items.append("The period of notice for the Tenant's option to renew is varied to %s notice." % notice_text(c[1]))
        elif c[0] == "nobreak":
            items.append("The Tenant's break option is deleted.")
    if a["kind"] == "deed":
        lines = ["DEED OF VARIATION", "", "Lease Reference: %s" % a["ref"], "Dated: %s" % D(a["date"]),
                 "Parties: %s (Landlord) and %s (Tenant)" % (landlord, a["tenant"]), "",
                 "Recital: the Lease commences or commenced on %s." % D(a["recital"]), "", "Variations:"]
        lines += ["(%s) %s" % ("abcdefgh"[i], t) for i, t in enumerate(items)]
        lines += ["", "Save as varied by this Deed the Lease remains in full force."]
    else:
        lines = ["SIDE LETTER", "", "Our ref: %s" % a["ref"], "Date: %s" % D(a["date"]), "To: %s (the Tenant)" % a["tenant"], "",
                 "We, %s, write as Landlord under the lease with a commencement date of %s. We agree as follows:" % (landlord, D(a["recital"])), ""]
        lines += ["%d. %s" % (i + 1, t) for i, t in enumerate(items)]
        lines += ["", "This letter is supplemental to the Lease."]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- portfolio

def build(rng, kind):
    """(files, want): the portfolio's files and its planned answers.

    kind: plain | amend | rentroll | dates | issues."""
    n = rng.randint(4, 6)
    ids, leases, used = set(), [], set()
    # Every portfolio has at least one lease of each rent mechanism.
    forced = rng.sample(["fixed", "stepped", "cpi"], 3)
    while len(leases) < n:
        lid = "L-%04d" % rng.randint(1000, 9999)
        if lid in ids:
            continue
        ids.add(lid)
        L = plan_lease(rng, lid, used, kind, forced[len(leases)] if len(leases) < 3 else None)
        L["file"] = rng.choice(["lease-%s.txt", "%s-lease.txt", "%s.txt"]) % lid.lower()
        leases.append(L)
    cpi = plan_cpi(rng)
    # Holidays: a base calendar plus days planted on or just before planned deadlines.
    hol = {}
    for y in range(2018, 2046):
        for (m, d) in ((1, 1), (12, 25), (12, 26), (5, rng.randint(1, 8)), (8, rng.randint(24, 31))):
            hol[dt.date(y, m, d)] = rng.choice(HOLIDAY_NAMES)
    counter = [0]
    amends = {}
    for L in leases:
        amends[L["id"]] = plan_amendments(rng, L, kind, ids, counter)
        for a in amends[L["id"]]:
            for i, c in enumerate(a["changes"]):
                if c[0] == "rent":
                    a["changes"][i] = c + (shift_months(L["comm"], 12 * (c[1] - 1)),)
    # Plant holidays around the (final) deadlines so that a calendar-day count or a forgotten
    # holiday lands elsewhere.
    for L in leases:
        rec, _, _ = settle(L, amends[L["id"]], set(hol), cpi)
        refs = []
        if rec["renewal"]:
            refs.append(dt.date.fromisoformat(rec["renewal"]["notice_deadline"]))
        refs += [dt.date.fromisoformat(b["notice_deadline"]) for b in rec["breaks"]]
        for d in refs:
            if rng.random() < 0.5:
                hol[d] = rng.choice(HOLIDAY_NAMES)
    holset = set(hol)
    files = {}
    records, issues, rent_by_lease = [], [], {}
    for L in leases:
        files[L["file"]] = render_lease(L).encode("utf-8")
        for a in amends[L["id"]]:
            files[a["file"]] = render_amendment(a, L["landlord"]).encode("utf-8")
            if a["code"] == "UNKNOWN_LEASE":
                issues.append((a["file"], a["ref"], "UNKNOWN_LEASE"))
        rec, rents, iss = settle(L, amends[L["id"]], holset, cpi)
        records.append(rec)
        issues += iss
        rent_by_lease[L["id"]] = rents
    files["holidays.csv"] = ("date,name\n" + "".join("%s,%s\n" % (iso(d), hol[d]) for d in sorted(hol))).encode()
    files["cpi.csv"] = ("month,index\n" + "".join("%04d-%02d,%d.%d\n" % (y, m, v // 10, v % 10) for (y, m), v in sorted(cpi.items()))).encode()
    records.sort(key=lambda r: r["lease_id"])
    # Rent roll over a range of quarters that the leases' terms overlap.
    y0 = rng.randint(2022, 2027)
    q0 = (y0, rng.randint(1, 4))
    nq = rng.randint(6, 10)
    quarters, (y, qn) = [], q0
    for _ in range(nq):
        quarters.append((y, qn))
        y, qn = (y + 1, 1) if qn == 4 else (y, qn + 1)
    roll = {}
    for rec in records:
        comm = dt.date.fromisoformat(rec["commencement"])
        exp = dt.date.fromisoformat(rec["expiry"])
        for q in quarters:
            touched, c = quarter_rent(comm, exp, rent_by_lease[rec["lease_id"]], q)
            if touched:
                roll[(rec["lease_id"], "%dQ%d" % q)] = money_text(c)
    lo = dt.date(rng.randint(2022, 2028), rng.randint(1, 12), rng.randint(1, 28))
    hi = lo + DAY * rng.randint(400, 900)
    dates = []
    for rec in records:
        dates += critical_dates(rec, lo, hi)
    dates.sort()
    issues.sort()
    want = {"abstract": records, "quarters": ("%dQ%d" % quarters[0], "%dQ%d" % quarters[-1]), "rentroll": roll,
            "window": (iso(lo), iso(hi)), "dates": dates, "issues": issues}
    return files, want
