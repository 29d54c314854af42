"""Seeded loan agreements (prose) and their exact schedules (amortise.py: the grader's own method)."""
import calendar
from datetime import date
from decimal import Decimal
import amortise

MONEY = ("payment", "interest", "principal", "extra", "balance")

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
NAMES = ["Northwind Bank AG", "Harbor Credit Union", "Alpine Finance S.A.", "First Meridian Lending"]
BORROWERS = ["Kestrel Logistics GmbH", "J. Okafor", "Lindqvist Dental AB", "Rivera Farms LLC", "M. & P. Novak"]


def ordinal(k):
    return "%d%s" % (k, "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th"))


def money(x, style):
    s = "{:,.2f}".format(x)
    return s if style == 0 else s.replace(",", "")


def rate_txt(r, style):
    return ["%s%% per annum" % r, "%s per cent per annum" % r, "%d basis points per annum" % int(round(Decimal(r) * 100))][style]


def date_txt(d, style):
    return ["%d %s %d" % (d.day, MONTHS[d.month - 1], d.year), d.isoformat(), "%s %d, %d" % (MONTHS[d.month - 1], d.day, d.year)][style]


def terms(rng, kind):
    cur = rng.choice(["EUR", "USD", "GBP", "CHF"])
    principal = (Decimal(rng.randint(2000, 90000) * 5) + Decimal(rng.choice([0, 0, 50]))).quantize(Decimal("0.01"))
    rate = "%.2f" % (rng.randint(150, 850) / 100)
    n = rng.choice([24, 36, 48, 60, 84, 120, 180, 240]) if kind != "plain" else rng.choice([12, 24, 36, 60, 120])
    years = None
    y, mo = rng.randint(2025, 2027), rng.randint(1, 12)
    day = rng.choice([1, 5, 15, 28, 29, 30, 31] if kind != "plain" else [1, 5, 15, 28])
    first = date(y, mo, min(day, calendar.monthrange(y, mo)[1]))
    t = dict(cur=cur, principal=principal, rate=Decimal(rate), rate_s=rate, n=n, first=first, io=0, balloon=Decimal("0.00"),
             changes={}, extras={})
    if kind == "rate_change":
        for _ in range(rng.randint(1, 2)):
            t["changes"][rng.randint(2, n - 2)] = Decimal("%.2f" % (rng.randint(150, 850) / 100))
        if rng.random() < 0.5:
            t["io"] = rng.choice([3, 6, 12])
    if kind == "prepay_balloon":
        if rng.random() < 0.7:
            t["balloon"] = (principal * Decimal(rng.choice([10, 20, 25, 30])) / 100).quantize(Decimal("0.01"))
        for _ in range(rng.randint(1, 3)):
            t["extras"][rng.randint(2, n // 2)] = Decimal(rng.randint(1, 20) * 250).quantize(Decimal("0.01"))
        if rng.random() < 0.4:
            t["io"] = rng.choice([6, 12])
    return t


def render(rng, t, kind):
    st = (lambda k: rng.randint(0, k - 1)) if kind == "phrasing" else (lambda k: 0)
    amend = kind == "phrasing" and rng.random() < 0.7
    shown = dict(t)
    if amend:
        # The body states superseded values; the amendment schedule restates the real ones.
        shown["rate_s"] = "%.2f" % (rng.randint(150, 850) / 100)
        shown["n"] = t["n"] + 12
    L = ["LOAN AGREEMENT No. %d-%04d" % (t["first"].year, rng.randint(0, 9999)), "",
         "between %s (\"the Lender\") and %s (\"the Borrower\"), dated %s." % (rng.choice(NAMES), rng.choice(BORROWERS),
                                                                             date_txt(date(t["first"].year - 1, 12, 1), 0)), "",
         "1. PRINCIPAL"]
    p = money(t["principal"], st(2))
    L.append(["1.1 The Lender agrees to lend to the Borrower the principal amount of %s %s." % (t["cur"], p),
              "1.1 The Lender shall advance the sum of %s %s to the Borrower." % (t["cur"], p),
              "1.1 Loan amount: %s %s, disbursed in one tranche." % (p, t["cur"])][st(3)])
    L += ["", "2. INTEREST",
          "2.1 Interest accrues on the outstanding principal at a fixed rate of %s." % rate_txt(shown["rate_s"], st(3)),
          "2.2 Interest for each instalment is one twelfth of the annual rate applied to the outstanding principal."]
    for k, r in sorted(t["changes"].items()):
        L.append("2.3 With effect from the %s instalment, the rate shall be %s." % (ordinal(k), rate_txt("%.2f" % r, st(3))))
    L.append("2.4 Default interest of 2.00% per annum above the applicable rate applies to overdue amounts.")
    L += ["", "3. REPAYMENT"]
    nn = shown["n"]
    L.append(["3.1 The loan shall be repaid in %d monthly instalments." % nn,
              "3.1 The loan shall be repaid over a term of %d months." % nn,
              "3.1 The loan shall be repaid over a term of %d years." % (nn // 12) if nn % 12 == 0 else "3.1 The loan shall be repaid in %d monthly instalments." % nn][st(3)])
    L.append("3.2 The first instalment is due on %s; each further instalment is due on the same day of each following month, "
             "or on the last day of a month that has no such day." % date_txt(t["first"], st(3)))
    if t["io"]:
        L.append("3.3 The first %d instalments comprise interest only." % t["io"])
    if t["balloon"]:
        L.append("3.4 A balloon payment of %s %s is due with the final instalment." % (t["cur"], money(t["balloon"], st(2))))
    L += ["", "4. PREPAYMENT AND FEES"]
    for k, x in sorted(t["extras"].items()):
        L.append("4.1 The Borrower shall make an additional principal payment of %s %s together with the %s instalment."
                 % (t["cur"], money(x, st(2)), ordinal(k)))
    L.append("4.2 A late payment fee of %s 25.00 is charged for each instalment more than 10 days overdue." % t["cur"])
    L += ["", "5. GOVERNING LAW", "5.1 This Agreement is governed by the laws of the place of the Lender's registered office.", ""]
    if amend:
        L += ["SCHEDULE 2 - AMENDMENTS",
              "A. Clause 2.1 is amended to read: Interest accrues on the outstanding principal at a fixed rate of %s." % rate_txt(t["rate_s"], st(3)),
              "B. Clause 3.1 is amended to read: The loan shall be repaid in %d monthly instalments." % t["n"], ""]
    return "\n".join(L)


def consistent(t):
    """Reject schedules with a negative principal or an empty last payment (the rules leave those
    ambiguous). Returns the rows (money in integer cents), or None."""
    rows = amortise.rows(t)
    if rows[-1]["payment"] <= 0 or any(r["principal"] < 0 for r in rows):
        return None
    amortise.check(t, rows)
    return rows


def as_money(rows):
    return [dict(r, **{c: Decimal(r[c]).scaleb(-2) for c in MONEY}) for r in rows]


def build(rng, kind):
    """Returns (files, expected {stem: rows})."""
    files, exp = {}, {}
    for i in range(rng.randint(2, 3)):
        while True:
            t = terms(rng, kind)
            rows = consistent(t)
            if rows and not near_tie(t, rows):
                break
        stem = "contract_%02d" % (i + 1)
        files[stem + ".txt"] = render(rng, t, kind).encode()
        exp[stem] = dict(rows=as_money(rows), cur=t["cur"])
    return files, exp


def near_tie(t, rows):
    """True if some month's interest is exactly half a cent before rounding (float solutions could
    round it either way). In cents the interest is balance * x / 120000, x the rate in hundredths."""
    bal, x = amortise.cents(t["principal"]), amortise.hundredths(t["rate"])
    for r in rows:
        x = amortise.hundredths(t["changes"][r["k"]]) if r["k"] in t["changes"] else x
        if bal * x % amortise.BPS == amortise.BPS // 2:
            return True
        bal = r["balance"]
    return False
