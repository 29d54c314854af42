"""Seeded receivables ledgers built from their answer: every payment's effect is planted first
(which invoice it settles, fully, partly or with credit left over) and the payment is derived
from it, so the expected invoice rows, unapplied credits and aging come from the plan — no
reconciliation is run to find them."""
import csv, io, json
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

CUSTOMERS = ["Acme Tools", "Birch & Daughters", "Calder Systems", "Dunmore Shipping", "Elbe Logistik", "Fjord Analytics", "Granite Health"]
SUFFIX = ["Ltd", "Ltd.", "GmbH", "Inc.", "LLC", "S.A.", "AG", "plc"]
CURS = ["USD", "GBP", "CHF", "SEK"]
CENT = Decimal("0.01")
ZERO = Decimal("0.00")
NO_REFERENCE = "payment thanks"  # names no invoice: the payment is matched by payer and amount, or not at all


def fmt_ref(rng, iid, messy):
    y, n = iid[4:8], int(iid[9:])
    if not messy:
        return iid
    return rng.choice(["INV-%s-%04d" % (y, n), "inv %s/%d" % (y, n), "Invoice #%s-%04d" % (y, n), "INV:%s %d" % (y, n),
                       "invoice %s-%d" % (y, n), "Inv.%s/%04d" % (y, n)])


def to_csv(header, rows):
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return b.getvalue().encode()


def bucket(days):
    for limit, name in ((0, "current"), (30, "1-30"), (60, "31-60"), (90, "61-90")):
        if days <= limit:
            return name
    return "90+"


class Ledger:
    """Invoices, FX rates and planted payments; each invoice's final open balance is set by the plan."""

    def __init__(self, rng, kind):
        self.rng, self.kind = rng, kind
        self.multi = kind in ("fx", "allocation")
        self.messy = kind in ("references", "allocation")
        self.start = date(2026, rng.randint(1, 4), rng.randint(1, 28))
        self.report = self.start + timedelta(days=rng.randint(120, 200))
        self.custs = rng.sample(CUSTOMERS, 4)
        self.legal = {c: rng.choice(SUFFIX) for c in self.custs}
        self.rates = {}
        d = self.start - timedelta(days=10)
        while d <= self.report:
            if d.weekday() < 5 or not self.multi:
                for c in CURS:
                    base = {"USD": 0.92, "GBP": 1.17, "CHF": 1.05, "SEK": 0.088}[c]
                    self.rates[(d, c)] = Decimal("%.6f" % (base * (1 + rng.uniform(-0.03, 0.03))))
            d += timedelta(days=1)
        self.invoices, seen = [], set()
        for _ in range(rng.randint(12, 20)):
            issue = self.start + timedelta(days=rng.randint(0, 100))
            inv = dict(id="INV-%d-%04d" % (issue.year, rng.randint(1, 9999)), cust=rng.choice(self.custs), issue=issue,
                       due=issue + timedelta(days=rng.choice([14, 30, 45, 60])),
                       cur=rng.choice(["EUR"] + CURS) if self.multi else "EUR",
                       amount=Decimal("%.2f" % rng.uniform(80, 9000)))
            inv["open"] = inv["amount"]  # the final open balance, once the plan has run
            if inv["id"] not in seen:
                seen.add(inv["id"])
                self.invoices.append(inv)
        self.pays = []  # [date, currency, amount, payer, reference, unapplied remainder]

    def rate(self, cur, d):
        """EUR per unit on d: the day's row, else the nearest earlier day's (weekends have none)."""
        if cur == "EUR":
            return Decimal(1)
        while (d, cur) not in self.rates:
            d -= timedelta(days=1)
        return self.rates[(d, cur)]

    def conv(self, x, a, b, d):
        return x if a == b else (x * self.rate(a, d) / self.rate(b, d)).quantize(CENT, rounding=ROUND_HALF_UP)

    def payer(self, cust):
        if not self.messy:
            return cust
        return self.rng.choice([cust, cust.upper(), "%s %s" % (cust, self.legal[cust]), "%s, %s" % (cust, self.legal[cust])])

    def pay_currency(self, inv):
        return inv["cur"] if not self.multi or self.rng.random() < 0.5 else self.rng.choice(["EUR"] + CURS)

    def reference(self, ids):
        text = " and ".join(fmt_ref(self.rng, i, self.messy) for i in ids)
        return ("Ref " + text) if self.rng.random() < 0.5 else text

    def amount_matches(self, cust, amount, cur, d, skip=None):
        """Whether some invoice of cust, at its full or its planted balance, converts to amount on d:
        an unreferenced payment of that amount could then settle it (the plan keeps such payments apart)."""
        return any(self.conv(v, i["cur"], cur, d) == amount for i in self.invoices
                   if i["cust"] == cust and i is not skip for v in {i["amount"], i["open"]} if v > 0)

    def settle(self, inv, pc, d, amount):
        """The planted effect of `amount` (in pc) applied to inv by reference; returns what is left."""
        need = self.conv(inv["open"], inv["cur"], pc, d)
        if amount >= need:
            inv["open"] = ZERO
            return amount - need
        inv["open"] = max(ZERO, inv["open"] - self.conv(amount, pc, inv["cur"], d))
        return ZERO

    def plant(self):
        rng, kind = self.rng, self.kind
        unpaid, paid_by_ref = [], []
        later = []  # unreferenced payments: planted once every other balance is final (their guard reads them)
        for inv in self.invoices:
            if rng.random() < 0.2:
                unpaid.append(inv)
                continue
            d = inv["issue"] + timedelta(days=rng.randint(3, 80))
            if d > self.report:
                unpaid.append(inv)
                continue
            pc = self.pay_currency(inv)
            need = self.conv(inv["amount"], inv["cur"], pc, d)
            if self.messy and rng.random() < 0.2:
                later.append((inv, pc, d, need))
                continue
            amount = need
            if kind == "allocation" and rng.random() < 0.35:
                amount = (need * Decimal(str(rng.choice([0.5, 0.3, 1.2, 0.75])))).quantize(CENT, rounding=ROUND_HALF_UP)
            left = self.settle(inv, pc, d, amount)
            self.pays.append([d, pc, amount, self.payer(inv["cust"]), self.reference([inv["id"]]), self.conv(left, pc, "EUR", d)])
            if inv["open"] == 0:
                paid_by_ref.append((inv, d))
        if self.messy:
            self.combined(unpaid)
            if paid_by_ref:
                # The same invoice paid again later: nothing is left open to apply it to.
                inv, first = rng.choice(paid_by_ref)
                d = first + timedelta(days=rng.randint(1, 20))
                if d <= self.report:
                    amount = Decimal("%.2f" % rng.uniform(50, 500))
                    self.pays.append([d, "EUR", amount, self.payer(inv["cust"]), self.reference([inv["id"]]), amount])
        for inv, pc, d, need in later:
            self.unreferenced(inv, pc, d, need)
        # A payment naming an unknown invoice id and matching no invoice by amount: all unapplied.
        cust, d = rng.choice(self.custs), self.report - timedelta(days=3)
        amount = Decimal("%.2f" % rng.uniform(50, 500))
        while self.amount_matches(cust, amount, "EUR", d):
            amount += CENT
        self.pays.append([d, "EUR", amount, cust, "INV-1999-0001", amount])

    def unreferenced(self, inv, pc, d, need):
        """No reference: the exact amount settles inv by payer and amount, unless another invoice of the
        customer could take it; an amount off by a share (allocation) matches nothing and stays unapplied."""
        if self.kind == "allocation" and self.rng.random() < 0.4:
            amount = (need * Decimal("0.8")).quantize(CENT, rounding=ROUND_HALF_UP)
            while self.amount_matches(inv["cust"], amount, pc, d):
                amount += CENT
            self.pays.append([d, pc, amount, self.payer(inv["cust"]), NO_REFERENCE, self.conv(amount, pc, "EUR", d)])
            return
        if self.amount_matches(inv["cust"], need, pc, d, skip=inv):
            return  # ambiguous: leave inv unpaid rather than plant a payment with two candidates
        inv["open"] = ZERO
        self.pays.append([d, pc, need, self.payer(inv["cust"]), NO_REFERENCE, ZERO])

    def combined(self, unpaid):
        """One EUR payment naming two unpaid invoices of a customer: both settled (maybe with credit
        left), or in allocation ledgers sometimes the first in (due, id) order settled, the second part-paid."""
        for cust in self.rng.sample(self.custs, len(self.custs)):
            mine = sorted((i for i in unpaid if i["cust"] == cust), key=lambda i: (i["due"], i["id"]))[:2]
            if len(mine) < 2:
                continue
            d = max(m["issue"] for m in mine) + timedelta(days=5)
            if d > self.report:
                continue
            needs = [self.conv(m["amount"], m["cur"], "EUR", d) for m in mine]
            if self.kind == "allocation" and self.rng.random() < 0.5:
                amount = needs[0] + (needs[1] * Decimal("0.5")).quantize(CENT, rounding=ROUND_HALF_UP)
            else:
                amount = needs[0] + needs[1] + Decimal(self.rng.choice([0, 0, 50]))
            left = amount
            for m in mine:  # allocation order: (due_date, invoice_id)
                left = self.settle(m, "EUR", d, left)
            ids = [m["id"] for m in mine]
            self.rng.shuffle(ids)  # the order named in the reference does not matter
            self.pays.append([d, "EUR", amount, self.payer(cust), self.reference(ids), left])
            return

    def answer(self):
        rows, aging = {}, {b: ZERO for b in ("current", "1-30", "31-60", "61-90", "90+")}
        for i in self.invoices:
            late = max(0, (self.report - i["due"]).days) if i["open"] > 0 else 0
            status = "paid" if i["open"] == 0 else "partial" if i["open"] < i["amount"] else "open"
            rows[i["id"]] = (status, float(i["open"]), late)
            if i["open"] > 0:
                aging[bucket(late)] += self.conv(i["open"], i["cur"], "EUR", self.report)
        unapplied = {(pid, float(p[5])) for pid, p in zip(self.pids, self.pays) if p[5] > 0}
        return rows, unapplied, {k: float(v) for k, v in aging.items()}

    def files(self):
        self.rng.shuffle(self.pays)
        self.pids = ["P%05d" % n for n in self.rng.sample(range(100000), len(self.pays))]
        prow = [[pid, p[0].isoformat(), p[3], p[1], "%s" % p[2], p[4]] for pid, p in zip(self.pids, self.pays)]
        irow = [[i["id"], i["cust"] + ("" if not self.messy else " " + self.legal[i["cust"]]), i["issue"].isoformat(),
                 i["due"].isoformat(), i["cur"], "%s" % i["amount"]] for i in self.invoices]
        self.rng.shuffle(irow)
        fx = [[dd.isoformat(), c, "%s" % v] for (dd, c), v in sorted(self.rates.items())]
        return {"invoices.csv": to_csv(["invoice_id", "customer", "issue_date", "due_date", "currency", "amount"], irow),
                "payments.csv": to_csv(["payment_id", "date", "payer", "currency", "amount", "reference"], prow),
                "fx.csv": to_csv(["date", "currency", "eur_per_unit"], fx),
                "config.json": json.dumps({"report_date": self.report.isoformat()}).encode()}


def build(rng, kind):
    """kind: plain | references | fx | allocation. Returns (files, answer); the answer has read()'s shape
    in grade.py: ({invoice_id: (status, open, days_overdue)}, {(payment_id, unapplied EUR)}, aging)."""
    ledger = Ledger(rng, kind)
    ledger.plant()
    files = ledger.files()
    return files, ledger.answer()
