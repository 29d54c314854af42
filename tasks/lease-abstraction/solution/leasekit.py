#!/usr/bin/env python3
"""Lease abstraction toolkit: abstract, rentroll, dates, issues (see /app/docs/abstraction-guideline.md)."""
import csv
import datetime as dt
import json
import os
import re
import sys
from fractions import Fraction

MONTHS = {m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                       "september", "october", "november", "december"], 1)}
WORDS = {w: i for i, w in enumerate(["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                                      "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                                      "fifteenth"], 1)}
DATE_RE = (r"(?:\d{4}-\d{2}-\d{2}|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?"
           r"(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4})")
MONEY_RE = r"(?:\u00a3|GBP\s+)[\d,]+(?:\.\d{2})?"
NOTICE_RE = r"(\d+)\s+(Business Days|months)'?"


class LeaseError(Exception):
    pass


# ------------------------------------------------------------------ small parsers

def parse_date(text):
    text = text.strip()
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if m:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.fullmatch(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?([A-Za-z]+)\s+(\d{4})", text)
    if not m:
        raise LeaseError("bad date %r" % text)
    return dt.date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))


def parse_money(text):
    """Pence as an int."""
    num = re.sub(r"^(?:\u00a3|GBP\s+)", "", text.strip()).replace(",", "")
    whole, _, frac = num.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def parse_notice(num, unit):
    return ("bd" if unit.lower().startswith("business") else "m", int(num))


def find(pattern, text, what, flags=re.S):
    m = re.search(pattern, text, flags)
    if not m:
        raise LeaseError("cannot find %s" % what)
    return m


def add_months(d, n):
    y, m = divmod(d.month - 1 + n, 12)
    y += d.year
    m += 1
    last = [31, 29 if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    return dt.date(y, m, min(d.day, last))


def one_line(s):
    return re.sub(r"\s+", " ", s).strip()


# ------------------------------------------------------------------ base leases

def lease_a(text):
    L = {"id": find(r"Lease Reference:\s*(L-\d+)", text, "reference").group(1)}
    m = find(r"THIS LEASE is dated (%s) and made between (.+?) \(the \"Landlord\"\) and (.+?) \(the \"Tenant\"\)" % DATE_RE, text, "parties")
    L["signed"], L["landlord"], L["tenant"] = parse_date(m.group(1)), one_line(m.group(2)), one_line(m.group(3))
    m = find(r"lets to the Tenant (.+?) \(the \"Premises\"\), having a lettable area of ([\d,]+) square feet", text, "premises")
    L["premises"], L["area"] = one_line(m.group(1)), int(m.group(2).replace(",", ""))
    m = re.search(r"The term commences on and including (%s).*?expires on and including (%s)" % (DATE_RE, DATE_RE), text, re.S)
    if m:
        L["comm"], L["expiry"] = parse_date(m.group(1)), parse_date(m.group(2))
    else:
        m = find(r"The term is (\d+) years(?: and (\d+) months)? commencing on and including (%s)" % DATE_RE, text, "term")
        L["comm"] = parse_date(m.group(3))
        L["expiry"] = add_months(L["comm"], 12 * int(m.group(1)) + int(m.group(2) or 0)) - dt.timedelta(days=1)
    L["rent0"] = parse_money(find(r"initial annual rent is (%s)" % MONEY_RE, text, "rent").group(1))
    m = re.search(r"increase by ([\d.]+) per cent", text)
    if m:
        L["esc"] = ("fixed", Fraction(m.group(1)))
    elif "percentage change in the Index" in text:
        m = find(r"minimum increase of (\d+) per cent and a maximum increase of (\d+) per cent", text, "cpi")
        L["esc"] = ("cpi", int(m.group(1)), int(m.group(2)))
    else:
        body = find(r"The annual rent shall be:(.+?)\.\n", text, "stepped rent").group(1)
        steps = []
        for a, b, money in re.findall(r"for years? (\d+)(?: to (\d+))? of the Term, (%s)" % MONEY_RE, body):
            steps.append((int(a), int(b or a), parse_money(money)))
        L["esc"] = ("stepped", steps)
    m = re.search(r"renew this Lease for a further term of (\d+) years by giving the Landlord not less than " + NOTICE_RE, text)
    L["renewal"] = (int(m.group(1)), parse_notice(m.group(2), m.group(3))) if m else None
    m = re.search(r"terminate this Lease on the (.+?) of the Term Commencement Date .*?not less than " + NOTICE_RE, text, re.S)
    L["breaks"], L["break_notice"] = [], None
    if m:
        L["breaks"] = [WORDS[w] for w in re.findall(r"(\w+) anniversary", m.group(1))]
        L["break_notice"] = parse_notice(m.group(2), m.group(3))
    return L


def lease_b(text):
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^(\S.*?) \.{3,} (.*)$", line)
        if m:
            rows[m.group(1).strip()] = m.group(2).strip()
    L = {"id": rows["Reference"], "signed": parse_date(rows["Date"]), "landlord": rows["Landlord"],
         "tenant": rows["Tenant"], "premises": rows["Premises"],
         "area": int(rows["Lettable Area"].split()[0].replace(",", "")),
         "comm": parse_date(rows["Commencement Date"])}
    if "Expiry Date" in rows:
        L["expiry"] = parse_date(rows["Expiry Date"])
    else:
        m = find(r"(\d+) years(?: and (\d+) months)?", rows["Term"], "term")
        L["expiry"] = add_months(L["comm"], 12 * int(m.group(1)) + int(m.group(2) or 0)) - dt.timedelta(days=1)
    L["rent0"] = parse_money(find(MONEY_RE, rows["Initial Rent"], "rent").group(0))
    review = rows["Rent Review"]
    if review.startswith("fixed"):
        L["esc"] = ("fixed", Fraction(find(r"([\d.]+)%", review, "uplift").group(1)))
    elif review.startswith("CPI"):
        m = find(r"collar (\d+)%, cap (\d+)%", review, "collar")
        L["esc"] = ("cpi", int(m.group(1)), int(m.group(2)))
    else:
        steps = []
        for key, val in rows.items():
            m = re.fullmatch(r"Years? (\d+)(?:-(\d+))?", key)
            if m:
                steps.append((int(m.group(1)), int(m.group(2) or m.group(1)), parse_money(find(MONEY_RE, val, "step").group(0))))
        L["esc"] = ("stepped", sorted(steps))
    ren = rows.get("Renewal Option", "none")
    if ren.lower() == "none":
        L["renewal"] = None
    else:
        m = find(r"(\d+) years; notice " + NOTICE_RE, ren, "renewal")
        L["renewal"] = (int(m.group(1)), parse_notice(m.group(2), m.group(3)))
    brk = rows.get("Break Option", "none")
    L["breaks"], L["break_notice"] = [], None
    if brk.lower() != "none":
        head, _, tail = brk.partition(";")
        L["breaks"] = [int(x) for x in re.findall(r"(\d+)(?:st|nd|rd|th)", head)]
        m = find(NOTICE_RE, tail, "break notice")
        L["break_notice"] = parse_notice(m.group(1), m.group(2))
    return L


def lease_c(text):
    L = {"id": find(r"AGREEMENT OF LEASE \(ref\. (L-\d+)\)", text, "reference").group(1)}
    L["signed"] = parse_date(find(r"^Made (%s)" % DATE_RE, text, "date", re.M).group(1))
    defs = dict((k, v.strip()) for k, v in re.findall(r'^"([^"]+)" means (.+?);\s*$', text, re.M))
    L["landlord"], L["tenant"] = defs["Landlord"], defs["Tenant"]
    m = find(r"(.+) comprising ([\d,]+) square feet", defs["Premises"], "premises")
    L["premises"], L["area"] = m.group(1).strip(), int(m.group(2).replace(",", ""))
    L["comm"] = parse_date(defs["Commencement Date"])
    m = re.search(r"to and including (%s)" % DATE_RE, defs["Term"])
    if m:
        L["expiry"] = parse_date(m.group(1))
    else:
        m = find(r"period of (\d+) years(?: and (\d+) months)?", defs["Term"], "term")
        L["expiry"] = add_months(L["comm"], 12 * int(m.group(1)) + int(m.group(2) or 0)) - dt.timedelta(days=1)
    L["rent0"] = parse_money(find(MONEY_RE, defs["Initial Rent"], "rent").group(0))
    m = re.search(r"increased by ([\d.]+)%, compounded", text)
    if m:
        L["esc"] = ("fixed", Fraction(m.group(1)))
    elif "Consumer Prices Index" in text:
        m = find(r"not less than (\d+)% and not more than (\d+)%", text, "cpi")
        L["esc"] = ("cpi", int(m.group(1)), int(m.group(2)))
    else:
        steps = [(int(a), int(b or a), parse_money(v)) for a, b, v in
                 re.findall(r"Rent Years? (\d+)(?:-(\d+))?: (%s)" % MONEY_RE, text)]
        L["esc"] = ("stepped", steps)
    m = re.search(r"Upon not less than %s notice before the expiry of the Term the Tenant may call for a new lease for a term of (\d+) years" % NOTICE_RE, text)
    L["renewal"] = (int(m.group(3)), parse_notice(m.group(1), m.group(2))) if m else None
    m = re.search(r"may end the Term on the (.+?) of the Commencement Date upon not less than " + NOTICE_RE, text, re.S)
    L["breaks"], L["break_notice"] = [], None
    if m:
        L["breaks"] = [WORDS[w] for w in re.findall(r"(\w+) anniversary", m.group(1))]
        L["break_notice"] = parse_notice(m.group(2), m.group(3))
    return L


def parse_amendment(text):
    A = {"ref": find(r"(?:Lease Reference|Our ref):\s*(L-\d+)", text, "reference").group(1),
         "date": parse_date(find(r"^(?:Dated|Date):\s*(%s)" % DATE_RE, text, "date", re.M).group(1))}
    m = re.search(r"Parties: (.+?) \(Landlord\) and (.+?) \(Tenant\)", text)
    A["tenant"] = one_line(m.group(2)) if m else one_line(find(r"^To: (.+?) \(the Tenant\)", text, "tenant", re.M).group(1))
    A["recital"] = parse_date(find(r"(?:commences or commenced on|with a commencement date of) (%s)" % DATE_RE, text, "recital").group(1))
    ch = []
    for d, money in re.findall(r"With effect from (%s) the annual rent is (%s)" % (DATE_RE, MONEY_RE), text):
        ch.append(("rent", parse_date(d), parse_money(money)))
    for d in re.findall(r"The Expiry Date is varied to (%s)" % DATE_RE, text):
        ch.append(("expiry", parse_date(d)))
    for a in re.findall(r"lettable area of the Premises is varied to ([\d,]+) square feet", text):
        ch.append(("area", int(a.replace(",", ""))))
    for num, unit in re.findall(r"option to renew is varied to " + NOTICE_RE, text):
        ch.append(("notice", parse_notice(num, unit)))
    if re.search(r"break option is deleted", text):
        ch.append(("nobreak",))
    A["changes"] = ch
    return A


# ------------------------------------------------------------------ portfolio

def load(folder):
    leases, amends = {}, []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        head = text.lstrip().split("\n", 1)[0].strip()
        if head == "LEASE":
            L = lease_a(text)
        elif head == "PARTICULARS OF LEASE":
            L = lease_b(text)
        elif head.startswith("AGREEMENT OF LEASE"):
            L = lease_c(text)
        elif head in ("DEED OF VARIATION", "SIDE LETTER"):
            A = parse_amendment(text)
            A["file"] = name
            amends.append(A)
            continue
        else:
            raise LeaseError("%s: unknown document %r" % (name, head))
        L["file"] = name
        leases[L["id"]] = L
    hol = set()
    with open(os.path.join(folder, "holidays.csv"), newline="") as f:
        for r in csv.DictReader(f):
            hol.add(dt.date.fromisoformat(r["date"].strip()))
    cpi = {}
    with open(os.path.join(folder, "cpi.csv"), newline="") as f:
        for r in csv.DictReader(f):
            y, m = r["month"].strip().split("-")
            cpi[(int(y), int(m))] = Fraction(r["index"].strip())
    return leases, amends, hol, cpi


def business_day(d, hol):
    return d.weekday() < 5 and d not in hol


def notice_deadline(ref, notice, hol):
    kind, n = notice
    if kind == "m":
        d = add_months(ref, -n)
        while not business_day(d, hol):
            d -= dt.timedelta(days=1)
        return d
    d = ref
    for _ in range(n):
        d -= dt.timedelta(days=1)
        while not business_day(d, hol):
            d -= dt.timedelta(days=1)
    return d


def half_up(x):
    return int((x * 2 + 1) // 2)


def index_for(cpi, d, back):
    n = d.year * 12 + (d.month - 1) - back
    return cpi[(n // 12, n % 12 + 1)]


def resolve(L, amends, hol, cpi):
    """Applies the lease's amendments; returns (record, yearly rents in pence, issues)."""
    issues = []
    expiry, area, renewal, breaks = L["expiry"], L["area"], L["renewal"], list(L["breaks"])
    fixed_rent = {}
    docs = [L["file"]]
    for A in sorted(amends, key=lambda a: (a["date"], a["file"])):
        if A["date"] > expiry:
            issues.append((A["file"], L["id"], "AFTER_EXPIRY"))
            continue
        if one_line(A["tenant"]).casefold() != one_line(L["tenant"]).casefold():
            issues.append((A["file"], L["id"], "TENANT_MISMATCH"))
        if A["recital"] != L["comm"]:
            issues.append((A["file"], L["id"], "COMMENCEMENT_MISMATCH"))
        docs.append(A["file"])
        for c in A["changes"]:
            if c[0] == "rent":
                fixed_rent[c[1]] = c[2]
            elif c[0] == "expiry":
                expiry = c[1]
            elif c[0] == "area":
                area = c[1]
            elif c[0] == "notice" and renewal is not None:
                renewal = (renewal[0], c[1])
            elif c[0] == "nobreak":
                breaks = []
    comm = L["comm"]
    starts = []
    while add_months(comm, 12 * len(starts)) <= expiry:
        starts.append(add_months(comm, 12 * len(starts)))
    kind = L["esc"][0]
    steps = {a: r for a, b, r in L["esc"][1]} if kind == "stepped" else {}
    if kind == "stepped" and max(b for a, b, r in L["esc"][1]) < len(starts):
        issues.append((L["file"], L["id"], "RENT_SCHEDULE_GAP"))
    rents = []
    for i, start in enumerate(starts):
        year = i + 1
        if start in fixed_rent:
            rents.append(fixed_rent[start])
        elif year == 1:
            rents.append(L["rent0"])
        elif kind == "fixed":
            rents.append(half_up(rents[-1] * (1 + L["esc"][1] / 100)))
        elif kind == "cpi":
            change = index_for(cpi, start, 3) / index_for(cpi, start, 15) - 1
            change = max(Fraction(L["esc"][1], 100), min(Fraction(L["esc"][2], 100), change))
            rents.append(half_up(rents[-1] * (1 + change)))
        else:
            rents.append(steps.get(year, rents[-1]))
    schedule = []
    for i, start in enumerate(starts):
        end = min(add_months(comm, 12 * (i + 1)) - dt.timedelta(days=1), expiry)
        amount = "%d.%02d" % divmod(rents[i], 100)
        if schedule and schedule[-1]["annual_rent"] == amount:
            schedule[-1]["end"] = end.isoformat()
        else:
            schedule.append({"start": start.isoformat(), "end": end.isoformat(), "annual_rent": amount})
    rec = {"lease_id": L["id"], "landlord": L["landlord"], "tenant": L["tenant"], "premises": L["premises"],
           "area_sqft": area, "commencement": comm.isoformat(), "expiry": expiry.isoformat(),
           "rent_schedule": schedule,
           "renewal": None if renewal is None else
           {"term_years": renewal[0], "notice_deadline": notice_deadline(expiry, renewal[1], hol).isoformat()},
           "breaks": [], "documents": docs}
    for k in breaks:
        bd = add_months(comm, 12 * k)
        rec["breaks"].append({"date": bd.isoformat(), "notice_deadline": notice_deadline(bd, L["break_notice"], hol).isoformat()})
    return rec, (starts, rents, expiry), issues


def portfolio(folder):
    leases, amends, hol, cpi = load(folder)
    out, issues = [], []
    for A in amends:
        if A["ref"] not in leases:
            issues.append((A["file"], A["ref"], "UNKNOWN_LEASE"))
    for lid in sorted(leases):
        rec, rents, iss = resolve(leases[lid], [A for A in amends if A["ref"] == lid], hol, cpi)
        out.append((rec, rents))
        issues += iss
    return out, sorted(issues)


# ------------------------------------------------------------------ commands

def parse_quarter(q):
    m = re.fullmatch(r"(\d{4})Q([1-4])", q.strip())
    if not m:
        raise LeaseError("bad quarter %r" % q)
    return int(m.group(1)), int(m.group(2))


def quarter_amount(starts, rents, expiry, qs, qe):
    """Pence for [qs, qe] (inclusive) or None when no day of the term falls in it."""
    total, any_day = Fraction(0), False
    for i, start in enumerate(starts):
        end = starts[i + 1] - dt.timedelta(days=1) if i + 1 < len(starts) else expiry
        lo, hi = max(start, qs), min(end, qe)
        if lo <= hi:
            any_day = True
            total += Fraction(rents[i] * ((hi - lo).days + 1), 365)
    return half_up(total) if any_day else None


def cmd_rentroll(folder, q_from, q_to, out):
    y, n = parse_quarter(q_from)
    last = parse_quarter(q_to)
    quarters = []
    while (y, n) <= last:
        quarters.append((y, n))
        y, n = (y + 1, 1) if n == 4 else (y, n + 1)
    rows = []
    for rec, (starts, rents, expiry) in portfolio(folder)[0]:
        for y, n in quarters:
            qs = dt.date(y, 3 * n - 2, 1)
            qe = add_months(qs, 3) - dt.timedelta(days=1)
            amt = quarter_amount(starts, rents, expiry, qs, qe)
            if amt is not None:
                rows.append((rec["lease_id"], "%dQ%d" % (y, n), "%d.%02d" % divmod(amt, 100)))
    write_csv(out, ["lease_id", "quarter", "rent"], rows)


def cmd_dates(folder, lo, hi, out):
    lo, hi = dt.date.fromisoformat(lo), dt.date.fromisoformat(hi)
    rows = []
    for rec, (starts, rents, expiry) in portfolio(folder)[0]:
        ev = [(expiry, "EXPIRY")] + [(s, "RENT_REVIEW") for s in starts[1:]]
        if rec["renewal"]:
            ev.append((dt.date.fromisoformat(rec["renewal"]["notice_deadline"]), "RENEWAL_NOTICE"))
        for b in rec["breaks"]:
            ev += [(dt.date.fromisoformat(b["date"]), "BREAK"), (dt.date.fromisoformat(b["notice_deadline"]), "BREAK_NOTICE")]
        rows += [(d.isoformat(), rec["lease_id"], e) for d, e in ev if lo <= d <= hi]
    write_csv(out, ["date", "lease_id", "event"], sorted(rows))


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main(argv):
    if len(argv) >= 3 and argv[0] == "abstract" and len(argv) == 3:
        recs = [rec for rec, _ in portfolio(argv[1])[0]]
        with open(argv[2], "w") as f:
            json.dump(recs, f, indent=2)
            f.write("\n")
    elif len(argv) == 5 and argv[0] == "rentroll":
        cmd_rentroll(*argv[1:])
    elif len(argv) == 5 and argv[0] == "dates":
        cmd_dates(*argv[1:])
    elif len(argv) == 3 and argv[0] == "issues":
        write_csv(argv[2], ["document", "lease_id", "code"], portfolio(argv[1])[1])
    else:
        sys.stderr.write("usage: leasekit.py abstract DIR OUT.json | rentroll DIR FROM_Q TO_Q OUT.csv | "
                         "dates DIR FROM TO OUT.csv | issues DIR OUT.csv\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
