"""Seeded receivables months built from their answer: every payment's effect is planted first
(which invoice it settles, fully, partly or with credit left over) and the payment is derived
from it, then written to bank statements in the two bank formats. The expected invoice rows,
bookings, unapplied credits, aging and audit findings come from the plan; no reconciliation runs
over the finished files."""
import csv, io, json
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

CUSTOMERS = ["Acme Tools", "Birch & Daughters", "Calder Systems", "Dunmore Shipping", "Elbe Logistik", "Fjord Analytics",
             "Granite Health", "Harbour Foods"]
DOTTED = ["Ltd.", "Inc.", "S.A."]
PLAIN = ["Ltd", "GmbH", "LLC", "AG", "plc", "BV"]
CURS = ["USD", "GBP", "CHF", "SEK"]
BASE = {"USD": 0.92, "GBP": 1.17, "CHF": 1.05, "SEK": 0.088}
CENT = Decimal("0.01")
ZERO = Decimal("0.00")
NO_REFERENCE = "payment thanks"  # names no invoice: matched by payer and amount, or not at all
TAILS = ["", " thank you", " PO 7781", " remittance"]


def r2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def fmt_ref(rng, iid, messy):
    y, n = iid[4:8], int(iid[9:])
    if not messy:
        return iid
    return rng.choice(["INV-%s-%04d" % (y, n), "inv %s/%d" % (y, n), "Invoice #%s-%04d" % (y, n), "INV:%s %d" % (y, n),
                       "invoice %s - %d" % (y, n), "Inv.%s/%04d" % (y, n), "inv#%s/%d" % (y, n)])


def to_csv(header, rows, delim=","):
    b = io.StringIO()
    w = csv.writer(b, delimiter=delim, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return b.getvalue().encode()


def bucket(days):
    for limit, name in ((0, "current"), (30, "1-30"), (60, "31-60"), (90, "61-90")):
        if days <= limit:
            return name
    return "90+"


def comma_amount(x):
    """Nordbank spelling: '.' groups thousands, ',' before the cents."""
    whole, cents = ("%.2f" % abs(x)).split(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return ("-" if x < 0 else "") + ".".join(groups) + "," + cents


class Month:
    """Invoices, FX rates and planted payments; each invoice's final open balance is set by the plan."""

    def __init__(self, rng, kind, report=None):
        self.rng, self.kind = rng, kind
        self.multi = kind != "references"
        self.messy = kind in ("references", "allocation", "audit", "month")
        self.short = kind in ("allocation", "audit", "month")
        if report is None:
            report = date(2026, rng.randint(5, 11), rng.randint(1, 28))
            if self.multi and rng.random() < 0.5:
                report += timedelta(days=(5 - report.weekday()) % 7 + rng.randint(0, 1))  # a Saturday or Sunday
        self.report = report
        self.start = report - timedelta(days=rng.randint(130, 170))
        self.custs = rng.sample(CUSTOMERS, 4)
        self.legal = {c: rng.choice(DOTTED if i % 2 == 0 else PLAIN) for i, c in enumerate(self.custs)}
        self.rates = {}
        d = self.start - timedelta(days=10)
        while d <= self.report + timedelta(days=7):
            if d.weekday() < 5:
                for c in CURS:
                    self.rates[(d, c)] = Decimal("%.6f" % (BASE[c] * (1 + rng.uniform(-0.03, 0.03))))
            d += timedelta(days=1)
        self.invoices, self.used = [], set()
        for _ in range(rng.randint(11, 15)):
            issue = self.start + timedelta(days=rng.randint(0, 100))
            self.add_invoice(issue, issue + timedelta(days=rng.choice([14, 30, 45, 60])))
        self.pays = []  # dicts: date, cur, amount, payer, ref, apps [(invoice id, applied)], left (payment currency)

    def add_invoice(self, issue, due, cust=None, number=None):
        while True:
            iid = "INV-%d-%04d" % (issue.year, number if number else self.rng.randint(1, 1200))
            if iid not in self.used:
                break
            number = None
        self.used.add(iid)
        inv = dict(id=iid, cust=cust or self.rng.choice(self.custs), issue=issue, due=due,
                   cur=self.rng.choice(["EUR"] + CURS) if self.multi else "EUR", amount=Decimal("%.2f" % self.rng.uniform(80, 9000)))
        inv["open"] = inv["amount"]  # the final open balance, once the plan has run
        self.invoices.append(inv)
        return inv

    def rate(self, cur, d):
        """EUR per unit on d: the day's row, else the nearest earlier day's (weekends have none)."""
        if cur == "EUR":
            return Decimal(1)
        while (d, cur) not in self.rates:
            d -= timedelta(days=1)
        return self.rates[(d, cur)]

    def conv(self, x, a, b, d):
        return x if a == b else r2(x * self.rate(a, d) / self.rate(b, d))

    def payer(self, cust):
        if not self.messy:
            return cust
        return self.rng.choice([cust, cust.upper(), "%s %s" % (cust, self.legal[cust]), "%s, %s" % (cust, self.legal[cust]),
                                "%s %s" % (cust, self.legal[cust].rstrip("."))])

    def pay_currency(self, inv):
        return inv["cur"] if not self.multi or self.rng.random() < 0.5 else self.rng.choice(["EUR"] + CURS)

    def reference(self, ids):
        text = " and ".join(fmt_ref(self.rng, i, self.messy) for i in ids)
        return ("Ref " if self.rng.random() < 0.4 else "") + text + self.rng.choice(TAILS)

    def amount_matches(self, cust, amount, cur, d, skip=None):
        """Whether some invoice of cust, at its full or its planted balance, converts to amount on d."""
        return any(self.conv(v, i["cur"], cur, d) == amount for i in self.invoices
                   if i["cust"] == cust and i is not skip for v in {i["amount"], i["open"]} if v > 0)

    def settle(self, inv, pc, d, amount, apps):
        """The planted effect of `amount` (in pc) applied to inv by reference; returns what is left."""
        need = self.conv(inv["open"], inv["cur"], pc, d)
        before = inv["open"]
        if amount >= need:
            inv["open"] = ZERO
            left = amount - need
        else:
            inv["open"] = max(ZERO, inv["open"] - self.conv(amount, pc, inv["cur"], d))
            left = ZERO
        apps.append((inv["id"], before - inv["open"]))
        return left

    def add_pay(self, d, pc, amount, cust, ref, apps, left):
        payer = self.payer(cust)
        if ref != NO_REFERENCE and self.rng.random() < 0.4:
            # Paid by someone else (a parent company, a factor): only the reference can find the invoice.
            payer = self.rng.choice(["Northgate Factoring Ltd", "%s Holding AG" % cust, "Treasury Services"])
        self.pays.append(dict(date=d, cur=pc, amount=amount, payer=payer, ref=ref, apps=apps, left=left))

    def plant(self):
        rng, kind = self.rng, self.kind
        # Unpaid invoices exactly on the aging boundaries.
        for days in rng.sample([30, 60, 90, 31, 61], 3):
            due = self.report - timedelta(days=days)
            self.add_invoice(due - timedelta(days=30), due)["keep_open"] = True
        # Two invoices of one customer whose id order is the reverse of their due order, for one payment.
        pair = None
        if self.short or kind == "import":
            cust = rng.choice(self.custs)
            issue = self.report - timedelta(days=rng.randint(50, 70))
            n = rng.randint(100, 900)
            late = self.add_invoice(issue, issue + timedelta(days=45), cust, n)
            early = self.add_invoice(issue, issue + timedelta(days=14), cust, n + rng.randint(1, 99))
            pair = [early, late]
        unpaid, paid_by_ref, later = [], [], []
        for inv in self.invoices:
            if pair and inv in pair:
                continue
            if rng.random() < 0.2 or inv.get("keep_open"):
                unpaid.append(inv)
                continue
            d = inv["issue"] + timedelta(days=rng.randint(3, 80))
            if d > self.report:
                unpaid.append(inv)
                continue
            pc = self.pay_currency(inv)
            need = self.conv(inv["amount"], inv["cur"], pc, d)
            if self.messy and rng.random() < (0.4 if kind == "references" else 0.25):
                later.append((inv, pc, d, need))
                continue
            amount = need
            if self.short and rng.random() < 0.35:
                amount = r2(need * Decimal(str(rng.choice([0.5, 0.3, 1.2, 0.75]))))
            apps = []
            left = self.settle(inv, pc, d, amount, apps)
            self.add_pay(d, pc, amount, inv["cust"], self.reference([inv["id"]]), apps, left)
            if inv["open"] == 0:
                paid_by_ref.append((inv, d))
        if pair:
            self.combined(pair)
        if self.messy and paid_by_ref:
            # The same invoice paid again later: nothing is left open to apply it to.
            inv, first = rng.choice(paid_by_ref)
            d = first + timedelta(days=rng.randint(1, 20))
            if d <= self.report:
                amount = Decimal("%.2f" % rng.uniform(50, 500))
                self.add_pay(d, "EUR", amount, inv["cust"], self.reference([inv["id"]]), [], amount)
        for inv, pc, d, need in later:
            self.unreferenced(inv, pc, d, need)
        # A payment naming an unknown invoice id and matching no invoice by amount: all unapplied.
        cust, d = rng.choice(self.custs), self.report - timedelta(days=3)
        amount = Decimal("%.2f" % rng.uniform(50, 500))
        while self.amount_matches(cust, amount, "EUR", d):
            amount += CENT
        self.add_pay(d, "EUR", amount, cust, "INV-1999-0001", [], amount)

    def unreferenced(self, inv, pc, d, need):
        """No reference: the exact amount settles inv by payer and amount, unless another invoice of the
        customer could take it; an amount off by a share matches nothing and stays unapplied."""
        if self.short and self.rng.random() < 0.3:
            amount = r2(need * Decimal("0.8"))
            while self.amount_matches(inv["cust"], amount, pc, d):
                amount += CENT
            self.add_pay(d, pc, amount, inv["cust"], NO_REFERENCE, [], amount)
            return
        if self.amount_matches(inv["cust"], need, pc, d, skip=inv):
            return  # ambiguous: leave inv unpaid rather than plant a payment with two candidates
        inv["open"] = ZERO
        self.add_pay(d, pc, need, inv["cust"], NO_REFERENCE, [(inv["id"], inv["amount"])], ZERO)

    def combined(self, pair):
        """One EUR payment naming both invoices of the pair (reference order shuffled): short of the
        total, so the earlier due date is settled and the other part-paid; or enough for both."""
        d = max(m["issue"] for m in pair) + timedelta(days=self.rng.randint(5, 25))
        needs = [self.conv(m["amount"], m["cur"], "EUR", d) for m in pair]
        if self.short or self.rng.random() < 0.5:
            amount = needs[0] + r2(needs[1] * Decimal("0.5"))
        else:
            amount = needs[0] + needs[1] + Decimal(self.rng.choice([0, 50]))
        left, apps = amount, []
        for m in pair:  # allocation order: (due_date, invoice_id)
            if left > 0:
                left = self.settle(m, "EUR", d, left, apps)
        ids = [m["id"] for m in pair]
        self.rng.shuffle(ids)
        self.add_pay(d, "EUR", amount, pair[0]["cust"], self.reference(ids), apps, left)

    def number(self):
        """Payment ids and statement rows; ids sort differently from dates."""
        self.rng.shuffle(self.pays)
        nums = self.rng.sample(range(10000, 99999), len(self.pays))
        for p, n in zip(self.pays, nums):
            p["fmt"] = "nordbank" if self.rng.random() < 0.5 else "tagged"
            p["id"] = ("NB%d" % n) if p["fmt"] == "nordbank" else ("TX%d" % n)

    def answer(self):
        rows, aging = {}, {b: ZERO for b in ("current", "1-30", "31-60", "61-90", "90+")}
        for i in self.invoices:
            late = max(0, (self.report - i["due"]).days) if i["open"] > 0 else 0
            status = "paid" if i["open"] == 0 else "partial" if i["open"] < i["amount"] else "open"
            rows[i["id"]] = (status, i["open"], late)
            if i["open"] > 0:
                aging[bucket(late)] += self.conv(i["open"], i["cur"], "EUR", self.report)
        unapplied = {(p["id"], self.conv(p["left"], p["cur"], "EUR", p["date"])) for p in self.pays if p["left"] > 0}
        return {"rows": rows, "bookings": self.bookings(), "unapplied": unapplied, "aging": aging}

    def bookings(self):
        """(payment id, invoice id or UNAPPLIED) -> amount (invoice currency; payment currency for UNAPPLIED)."""
        out = {}
        for p in self.pays:
            for iid, amount in p["apps"]:
                if amount > 0:
                    out[(p["id"], iid)] = amount
            if p["left"] > 0:
                out[(p["id"], "UNAPPLIED")] = p["left"]
        return out

    def statements(self):
        files, nb, tg = {}, [], []
        for p in self.pays:
            if p["fmt"] == "nordbank":
                booked = p["date"] + timedelta(days=self.rng.choice([1, 1, 2, 3]))
                nb.append([booked.strftime("%d.%m.%Y"), p["date"].strftime("%d.%m.%Y"), comma_amount(p["amount"]), p["cur"],
                           p["payer"], p["ref"], p["id"]])
            else:
                tg.append(p)
        # Outgoing transfers (debits) sit in both statements and are not customer payments.
        for n in range(self.rng.randint(1, 3)):
            d = self.report - timedelta(days=self.rng.randint(5, 90))
            nb.append([d.strftime("%d.%m.%Y"), d.strftime("%d.%m.%Y"), comma_amount(-Decimal("%.2f" % self.rng.uniform(100, 4000))),
                       "EUR", "Office Rent GmbH", "rent INV-2026-%04d" % self.rng.randint(1, 1200), "NB0%d" % n])
        self.rng.shuffle(nb)
        half = len(nb) // 2
        files["statements/nordbank-1.csv"] = to_csv(["booking_date", "value_date", "amount", "currency", "counterparty", "purpose", "txn_id"], nb[:half], ";")
        files["statements/nordbank-2.csv"] = to_csv(["booking_date", "value_date", "amount", "currency", "counterparty", "purpose", "txn_id"], nb[half:], ";")
        out = ["# tagged statement export"]
        debit = dict(id="TX0", date=self.report - timedelta(days=4), cur="EUR", amount=Decimal("812.40"), payer="Payroll",
                     ref="salaries INV-2026-%04d" % self.rng.randint(1, 1200), side="D")
        tg.insert(self.rng.randint(0, len(tg)), debit)
        for p in tg:
            out += [":TXN: %s" % p["id"], ":VALUE: %s" % p["date"].strftime("%Y%m%d"),
                    ":AMT: %s%s %s" % (p.get("side", "C"), p["amount"], p["cur"]), ":BY: %s" % p["payer"]]
            words = p["ref"].split(" ")
            if len(words) > 1 and self.rng.random() < 0.6:
                cut = self.rng.randint(1, len(words) - 1)
                out += [":REF: " + " ".join(words[:cut]), ":REF: " + " ".join(words[cut:])]
            else:
                out.append(":REF: " + p["ref"])
            out.append("-")
        files["statements/tagged.txt"] = ("\n".join(out) + "\n").encode()
        return files

    def files(self):
        self.number()
        irow = [[i["id"], i["cust"] + ("" if not self.messy else " " + self.legal[i["cust"]]), i["issue"].isoformat(),
                 i["due"].isoformat(), i["cur"], "%s" % i["amount"]] for i in self.invoices]
        self.rng.shuffle(irow)
        fx = [[dd.isoformat(), c, "%s" % v] for (dd, c), v in sorted(self.rates.items())]
        files = {"invoices.csv": to_csv(["invoice_id", "customer", "issue_date", "due_date", "currency", "amount"], irow),
                 "fx.csv": to_csv(["date", "currency", "eur_per_unit"], fx),
                 "config.json": json.dumps({"report_date": self.report.isoformat()}).encode()}
        files.update(self.statements())
        return files


def misbook(rng, month, correct):
    """A close report with planted mis-bookings, one kind per payment; returns (report bookings, findings).
    Each finding is (payment, invoice, reason, reported, corrected)."""
    report, found = dict(correct), set()
    by_pay = {}
    for (pid, iid), amount in correct.items():
        by_pay.setdefault(pid, []).append((iid, amount))
    custs = {i["id"]: i["cust"] for i in month.invoices}
    pids = sorted(by_pay)
    rng.shuffle(pids)
    kinds = ["drop", "amount", "move", "lose_credit", "credit_booked"]
    for pid, kind in zip(pids, kinds * 3):
        apps = [(i, a) for i, a in by_pay[pid] if i != "UNAPPLIED"]
        credit = dict(by_pay[pid]).get("UNAPPLIED")
        if kind in ("drop", "amount", "move") and apps:
            iid, a = rng.choice(apps)
            if kind == "drop":
                del report[(pid, iid)]
                extra = (credit or ZERO) + r2(a * Decimal("1.07"))
                report[(pid, "UNAPPLIED")] = extra
                found |= {(pid, iid, "missed_application", ZERO, a), (pid, "UNAPPLIED", "unapplied_wrong", extra, credit or ZERO)}
            elif kind == "amount":
                wrong = a + rng.choice([Decimal("-1"), Decimal("1")]) * r2(a * Decimal(str(rng.choice([0.004, 0.012, 0.3]))) + CENT)
                report[(pid, iid)] = wrong
                found.add((pid, iid, "wrong_amount", wrong, a))
            else:
                others = [i["id"] for i in month.invoices if i["cust"] == custs[iid] and (pid, i["id"]) not in correct]
                if not others:
                    continue
                j = rng.choice(others)
                del report[(pid, iid)]
                report[(pid, j)] = a
                found |= {(pid, iid, "missed_application", ZERO, a), (pid, j, "spurious_application", a, ZERO)}
        elif kind == "lose_credit" and credit:
            del report[(pid, "UNAPPLIED")]
            found.add((pid, "UNAPPLIED", "unapplied_wrong", ZERO, credit))
        elif kind == "credit_booked" and credit and not apps:
            j = rng.choice(month.invoices)["id"]
            report[(pid, j)] = credit
            del report[(pid, "UNAPPLIED")]
            found |= {(pid, j, "spurious_application", credit, ZERO), (pid, "UNAPPLIED", "unapplied_wrong", ZERO, credit)}
    cur = {}
    for p in month.pays:
        cur[p["id"]] = p["cur"]
    inv_cur = {i["id"]: i["cur"] for i in month.invoices}
    rows = [[pid, iid, "%.2f" % a, cur[pid] if iid == "UNAPPLIED" else inv_cur[iid]] for (pid, iid), a in report.items()]
    rng.shuffle(rows)
    return to_csv(["payment_id", "invoice_id", "amount", "currency"], rows), found


def build(rng, kind, report=None):
    """kind: import | references | allocation | audit | month. Returns (files, answer); an audit case's
    files carry report/bookings.csv and its answer the planted findings under 'findings'."""
    month = Month(rng, kind, report)
    month.plant()
    files = month.files()
    want = month.answer()
    if kind == "audit":
        files["report/bookings.csv"], want["findings"] = misbook(rng, month, want["bookings"])
    return files, want
