"""Seeded loan agreements (prose) and their exact schedules (amortise.py: the grader's own method),
and servicer statements with planted errors (construction) for the audit."""
import calendar
from datetime import date, timedelta
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


def term_txt(n, style):
    """The repayment clause for n instalments: in instalments, in months, or in years (n a multiple of 12)."""
    if style == 2 and n % 12 == 0:
        return "The loan shall be repaid over a term of %d years." % (n // 12)
    if style == 1:
        return "The loan shall be repaid over a term of %d months." % n
    return "The loan shall be repaid in %d monthly instalments." % n


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
        t["clear"] = rng.random() < 0.5
    return t


def plant_clearing(rng, t):
    """Adds an extra payment at least as large as the balance left after some instalment, so that
    it clears the loan there (capped at the balance; the schedule ends with that instalment)."""
    rows = amortise.rows(t)
    live = [r for r in rows[:-1] if r["k"] > t["io"] and r["k"] not in t["extras"] and r["k"] >= 3]
    if not live:
        return
    r = rng.choice(live[: max(1, len(live) // 2)])
    left = r["balance"] + r["extra"]
    t["extras"][r["k"]] = Decimal((left // 25000 + rng.choice([0, 1])) * 250 + 250).quantize(Decimal("0.01"))


def render(rng, t, kind, amend=None):
    st = (lambda k: rng.randint(0, k - 1)) if kind == "phrasing" else (lambda k: 0)
    if amend is None:
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
    L.append("3.1 " + term_txt(shown["n"], st(3)))
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
              "B. Clause 3.1 is amended to read: " + term_txt(t["n"], st(3)), ""]
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


def contract(rng, kind):
    """Terms of one contract of a kind and their exact rows (cents), retried until unambiguous."""
    while True:
        t = terms(rng, kind)
        if t.pop("clear", False):
            plant_clearing(rng, t)
        rows = consistent(t)
        if rows and not near_tie(t, rows):
            return t, rows


def build(rng, kind):
    """Returns (files, expected {stem: rows})."""
    files, exp = {}, {}
    for i in range(rng.randint(2, 3)):
        t, rows = contract(rng, kind)
        stem = "contract_%02d" % (i + 1)
        files[stem + ".txt"] = render(rng, t, kind).encode()
        exp[stem] = dict(rows=as_money(rows), cur=t["cur"])
    return files, exp


# ---- servicer statements with planted errors (the audit) -------------------------------------

STATEMENT_COLS = ["contract", "k", "date", "payment", "interest", "principal", "extra", "balance"]
ERRORS = ["WRONG_DATE", "WRONG_INTEREST", "WRONG_PRINCIPAL", "WRONG_EXTRA", "WRONG_PAYMENT", "WRONG_BALANCE",
          "MISSING_INSTALMENT", "EXTRA_INSTALMENT"]


def c2s(c):
    """Integer cents as money text with two decimals."""
    sign = "-" if c < 0 else ""
    return "%s%d.%02d" % (sign, abs(c) // 100, abs(c) % 100)


def nudge(rng, value):
    """A wrong amount near value (never equal, never negative)."""
    d = rng.choice([1, 1, 2, 10, 100, 2500, 10000])
    return value + d if rng.random() < 0.5 or value - d < 0 else value - d


def plant(rng, stem, rows, first, n_errors):
    """Statement rows for one contract with n_errors planted errors; returns (rows, findings).
    Each finding is (contract, k, reason, field, reported, corrected) as the audit must write it."""
    stmt = {r["k"]: dict(r) for r in rows}
    found = []
    kinds = rng.sample(ERRORS, n_errors)
    ks = rng.sample([r["k"] for r in rows], min(len(rows), n_errors))
    for kind, k in zip(kinds, ks):
        r = stmt[k]
        if kind == "WRONG_DATE":
            right = date.fromisoformat(r["date"])
            wrong = right + timedelta(days=rng.choice([-3, -1, 1, 2]))
            r["date"] = wrong.isoformat()
            found.append((stem, k, kind, "date", r["date"], right.isoformat()))
        elif kind == "WRONG_INTEREST":
            bad = nudge(rng, r["interest"])
            if rng.random() < 0.5:
                r["principal"] += r["interest"] - bad  # the payment stays as scheduled
            else:
                r["payment"] += bad - r["interest"]  # the principal stays, the payment follows
            found.append((stem, k, kind, "interest", c2s(bad), c2s(r["interest"])))
            r["interest"] = bad
        elif kind == "WRONG_PRINCIPAL":
            bad = nudge(rng, r["principal"])
            r["payment"] += bad - r["principal"]
            found.append((stem, k, kind, "principal", c2s(bad), c2s(r["principal"])))
            r["principal"] = bad
        elif kind == "WRONG_EXTRA":
            bad = 0 if r["extra"] else rng.randint(1, 20) * 25000
            found.append((stem, k, kind, "extra", c2s(bad), c2s(r["extra"])))
            r["extra"] = bad
        elif kind == "WRONG_PAYMENT":
            bad = nudge(rng, r["payment"])
            found.append((stem, k, kind, "payment", c2s(bad), c2s(r["payment"])))
            r["payment"] = bad
        elif kind == "WRONG_BALANCE":
            bad = nudge(rng, r["balance"])
            found.append((stem, k, kind, "balance", c2s(bad), c2s(r["balance"])))
            r["balance"] = bad
        elif kind == "MISSING_INSTALMENT":
            found.append((stem, k, kind, "", "", c2s(r["payment"])))
            del stmt[k]
        else:  # EXTRA_INSTALMENT: a row after the last one, as if the loan ran on
            last = rows[-1]
            k2 = last["k"] + 1
            when = due(first, k2)
            pay = max(last["payment"], 100)
            stmt[k2] = dict(k=k2, date=when.isoformat(), payment=pay, interest=0, principal=pay, extra=0, balance=0)
            found.append((stem, k2, kind, "", c2s(pay), ""))
    out = [[stem, r["k"], r["date"]] + [c2s(r[c]) for c in MONEY] for _, r in sorted(stmt.items())]
    return out, found


def due(first, k):
    """Due date of instalment k (1-based), counted from the first due date's month."""
    return amortise.due_dates(first, k)[-1]


def table(header, rows):
    lines = [",".join(header)] + [",".join(str(x) for x in r) for r in rows]
    return ("\n".join(lines) + "\n").encode()


AUDIT_KINDS = ["plain", "phrasing", "rate_change", "prepay_balloon"]


def build_audit(rng, kind, n_contracts=None, unknown=None):
    """Returns (files, findings): contracts/*.txt and statements.csv of a servicer with planted errors;
    the findings set is recorded as each error is planted."""
    files, stmts, found = {}, [], set()
    n = n_contracts or rng.randint(3, 4)
    for i in range(n):
        ck = rng.choice(AUDIT_KINDS)
        t, rows = contract(rng, ck)
        stem = "contract_%02d" % (i + 1)
        files["contracts/" + stem + ".txt"] = render(rng, t, ck).encode()
        n_err = rng.choice([0, 1, 2, 2, 3])
        srows, f = plant(rng, stem, rows, t["first"], n_err)
        stmts += srows
        found |= set(f)
    if unknown if unknown is not None else rng.random() < 0.6:
        t, rows = contract(rng, "plain")
        stem = "contract_%02d" % (n + rng.randint(1, 5))
        stmts += plant(rng, stem, rows[: rng.randint(2, 4)], t["first"], 0)[0]
        found.add((stem, "", "UNKNOWN_CONTRACT", "", "", ""))
    files["statements.csv"] = table(STATEMENT_COLS, stmts)
    return files, found


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
