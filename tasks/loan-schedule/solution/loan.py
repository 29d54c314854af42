#!/usr/bin/env python3
"""Extract loan terms from agreement texts and write instalment schedules + summary."""
import csv, json, os, re, sys
from datetime import date
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loan_core

MONTHS = {m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july", "august",
                                           "september", "october", "november", "december"])}
CUR = r"(EUR|USD|GBP|CHF)"
AMT = r"([\d,]+\.\d{2})"
RATE = r"(?:([\d.]+)\s*(?:%|per cent)|(\d+) basis points) per annum"


def amt(s):
    return Decimal(s.replace(",", ""))


def rate(m, i=1):
    return Decimal(m.group(i)) if m.group(i) else Decimal(m.group(i + 1)) / 100


def parse_date(s):
    s = s.strip()
    m = re.match(r"(\d{4})-(\d{2})-(\d{2})", s)
    if m:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    m = re.match(r"(\d{1,2}) ([A-Za-z]+) (\d{4})", s)
    if m:
        return date(int(m.group(3)), MONTHS[m.group(2).lower()], int(m.group(1)))
    m = re.match(r"([A-Za-z]+) (\d{1,2}), (\d{4})", s)
    return date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))


def term(text):
    m = re.search(r"repaid in (\d+) monthly instalments", text) or re.search(r"over a term of (\d+) months", text)
    if m:
        return int(m.group(1))
    m = re.search(r"over a term of (\d+) years", text)
    return int(m.group(1)) * 12 if m else None


def parse(text):
    body, _, amend = text.partition("SCHEDULE 2 - AMENDMENTS")
    m = re.search(r"(?:principal amount|sum) of " + CUR + " " + AMT, body)
    cur, principal = (m.group(1), amt(m.group(2))) if m else (None, None)
    if not m:
        m = re.search(r"Loan amount: " + AMT + " " + CUR, body)
        cur, principal = m.group(2), amt(m.group(1))
    r0 = rate(re.search(r"fixed rate of " + RATE, body))
    n = term(body)
    m = re.search(r"fixed rate of " + RATE, amend)
    if m:
        r0 = rate(m)
    n = term(amend) or n
    first = parse_date(re.search(r"first instalment is due on ([^;]+);", body).group(1))
    changes = {int(m.group(1)): rate(m, 2) for m in re.finditer(r"With effect from the (\d+)(?:st|nd|rd|th) instalment, the rate shall be " + RATE, text)}
    extras = {}
    for m in re.finditer(r"additional principal payment of " + CUR + " " + AMT + r" together with the (\d+)(?:st|nd|rd|th) instalment", text):
        extras[int(m.group(3))] = extras.get(int(m.group(3)), Decimal(0)) + amt(m.group(2))
    m = re.search(r"first (\d+) instalments comprise interest only", text)
    io = int(m.group(1)) if m else 0
    m = re.search(r"balloon payment of " + CUR + " " + AMT, text)
    balloon = amt(m.group(2)) if m else Decimal("0.00")
    return dict(cur=cur, principal=principal, rate=r0, n=n, first=first, io=io, balloon=balloon, changes=changes, extras=extras)


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    summary = {}
    for f in sorted(os.listdir(src)):
        if not f.endswith(".txt"):
            continue
        t = parse(open(os.path.join(src, f), encoding="utf-8").read())
        rows = loan_core.schedule(t)
        stem = f[:-4]
        with open(os.path.join(out, stem + ".csv"), "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["k", "date", "payment", "interest", "principal", "extra", "balance"])
            for r in rows:
                w.writerow([r["k"], r["date"]] + [str(r[c]) for c in ("payment", "interest", "principal", "extra", "balance")])
        summary[stem] = dict(currency=t["cur"], n_payments=len(rows),
                             total_interest=str(sum(r["interest"] for r in rows)),
                             total_paid=str(sum(r["payment"] + r["extra"] for r in rows)))
    json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
