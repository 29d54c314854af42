#!/usr/bin/env python3
"""Lease abstracts for the portfolio team -- first cut (traditional and particulars styles).

Usage: python3 abstract_leases.py PORTFOLIO OUT.json

TODO: definitions-style leases ("AGREEMENT OF LEASE"), CPI reviews, rent roll, critical dates
report, audit of the amendments.  Figures not yet signed off by the team.
"""
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
MONEY_RE = r"\u00a3[\d,]+(?:\.\d{2})?"
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
    num = text.strip().lstrip("\u00a3").replace(",", "")
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
        L["expiry"] = add_months(L["comm"], 12 * int(m.group(1)) + int(m.group(2) or 0))
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
        L["expiry"] = add_months(L["comm"], 12 * int(m.group(1)) + int(m.group(2) or 0))
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
        try:
            if head == "LEASE":
                L = lease_a(text)
            elif head == "PARTICULARS OF LEASE":
                L = lease_b(text)
        except (LeaseError, KeyError) as e:
            print("skipping %s: %s" % (name, e), file=sys.stderr)
            continue
        if head in ("LEASE", "PARTICULARS OF LEASE"):
            pass
        elif head.startswith("AGREEMENT OF LEASE"):
            print("skipping %s: style not supported yet" % name, file=sys.stderr)
            continue
        elif head in ("DEED OF VARIATION", "SIDE LETTER"):
            A = parse_amendment(text)
            A["file"] = name
            amends.append(A)
            continue
        else:
            raise LeaseError("%s: unknown document %r" % (name, head))
        L["file"] = name
        leases[L["id"]] = L
    hol = set()  # TODO: bank holidays
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
    return ref - dt.timedelta(days=n)


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
    for A in amends:
        if A["date"] < L["comm"]:
            continue  # not in force before the term starts
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
    rents = []
    for i, start in enumerate(starts):
        year = i + 1
        if start in fixed_rent:
            rents.append(fixed_rent[start])
        elif year == 1:
            rents.append(L["rent0"])
        elif kind == "fixed":
            rents.append(half_up(L["rent0"] * (1 + L["esc"][1] * i / 100)))
        elif kind == "cpi":
            rents.append(rents[-1])  # TODO: index-linked reviews
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
    for lid in sorted(leases):
        rec, rents, iss = resolve(leases[lid], [A for A in amends if A["ref"] == lid], hol, cpi)
        out.append((rec, rents))
        issues += iss
    return out, sorted(issues)


# ------------------------------------------------------------------ main

def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: abstract_leases.py PORTFOLIO OUT.json\n")
        return 2
    recs = [rec for rec, _ in portfolio(argv[0])[0]]
    with open(argv[1], "w") as f:
        json.dump(recs, f, indent=2)
    print("%d leases abstracted" % len(recs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
