"""Seeded ledger books built from their plan.

Every transaction is planned first as integer cents per posting (with its fate: accepted, or the
one rejection reason it is built to trip first), the rate series as integer millionths of the
base currency, and only then rendered as book files. The expected report, revaluation and audit
list are summed from the plan in integer arithmetic (cents x millionths, rounded half to even by
divmod), never by parsing the rendered journal and never with the package under test.
"""
import csv, io, json
from datetime import date, timedelta

BASE = "EUR"
MICRO = 1000000  # rates are integer millionths of a base unit
LEVEL = {"USD": 920000, "GBP": 1170000, "CHF": 1050000, "SEK": 88000, "JPY": 6200}
ACCOUNTS = [
    ("asset:bank-eur", "asset", "EUR"), ("asset:bank-usd", "asset", "USD"), ("asset:bank-gbp", "asset", "GBP"),
    ("asset:cash-chf", "asset", "CHF"), ("asset:bank-sek", "asset", "SEK"), ("liability:card-usd", "liability", "USD"),
    ("liability:loan-gbp", "liability", "GBP"), ("liability:vat", "liability", "EUR"), ("equity:capital", "equity", "EUR"),
    ("income:sales", "income", "EUR"), ("income:royalties-usd", "income", "USD"), ("income:interest", "income", "EUR"),
    ("expense:rent", "expense", "EUR"), ("expense:travel", "expense", "EUR"), ("expense:software", "expense", "EUR"),
    ("expense:fees", "expense", "EUR"), ("expense:office", "expense", "EUR"), ("expense:hosting-chf", "expense", "CHF"),
]
KIND_OF = {a: (t, c) for a, t, c in ACCOUNTS}
CONV = "equity:conversion"
WORDS = ["Invoice", "Transfer", "Card settlement", "Supplier", "Refund", "Payroll", "Loan instalment", "Fee",
         "Subscription", "Deposit", "Licence", "Hotel", "Client payment", "Office supplies"]
# What each kind stresses: foreign currencies, share of planted rounding ties, share of grouped
# amounts, share of transactions on a month's first/last day, share dated on a rate change.
KNOBS = {
    "plain": dict(curs=["USD", "GBP"], ties=0.3, grouped=0.6, edge=0.0, sameday=0.0, months=3),
    "posting": dict(curs=["USD", "GBP", "CHF"], ties=0.6, grouped=0.9, edge=0.1, sameday=0.1, months=3),
    "periods": dict(curs=["USD", "GBP"], ties=0.25, grouped=0.5, edge=0.55, sameday=0.1, months=5),
    "rates": dict(curs=["USD", "GBP", "CHF", "SEK"], ties=0.25, grouped=0.5, edge=0.1, sameday=0.6, months=3),
    "revalue": dict(curs=["USD", "GBP", "CHF", "SEK"], ties=0.4, grouped=0.5, edge=0.35, sameday=0.35, months=4),
    "audit": dict(curs=["USD", "GBP", "CHF"], ties=0.3, grouped=0.6, edge=0.25, sameday=0.3, months=3),
}


def month_end(y, m):
    return (date(y + 1, 1, 1) if m == 12 else date(y, m + 1, 1)) - timedelta(days=1)


def he_cents(units):
    """units = cents x millionths; the base value in cents, half to even."""
    q, r = divmod(abs(units), MICRO)
    if r * 2 > MICRO or (r * 2 == MICRO and q % 2 == 1):
        q += 1
    return q if units >= 0 else -q


def money_text(c, grouped=False, bare=False):
    sign = "-" if c < 0 else ""
    whole, frac = divmod(abs(c), 100)
    w = format(whole, ",") if grouped else str(whole)
    if bare and frac == 0:
        return sign + w
    return "%s%s.%02d" % (sign, w, frac)


def rate_text(micro):
    t = "%d.%06d" % divmod(micro, MICRO)
    return t.rstrip("0").rstrip(".")


class Plan:
    def __init__(self, rng, kind):
        self.rng, self.kind, self.k = rng, kind, KNOBS[kind]
        y, m = (2026, rng.choice([10, 11])) if kind == "periods" else (2026, rng.randint(1, 6))
        self.months = []
        for _ in range(self.k["months"]):
            self.months.append((y, m))
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
        self.first = date(*self.months[0], 1)
        self.last = month_end(*self.months[-1])
        self.curs = list(self.k["curs"])
        # A month left without transactions (its rows repeat the cumulative balances).
        self.quiet = self.months[rng.randint(1, len(self.months) - 2)] if kind == "periods" else None
        self.rates = {c: self.series(c) for c in self.curs}
        self.txns = []  # dicts: date (date or None), dtext, desc, flag, posts [(account, cents, cur, text)], fate
        self.sigs = set()
        self.serial = rng.randint(100, 900)

    # --- rates -----------------------------------------------------------------------------
    def series(self, cur):
        rng, out = self.rng, {}
        lvl = LEVEL[cur]
        d = self.first - timedelta(days=rng.randint(0, 6)) if self.kind != "rates" else self.first
        step = 1000 if lvl >= 500000 else 100 if lvl >= 50000 else 1
        while d <= self.last + timedelta(days=3):
            v = int(lvl * (1 + rng.uniform(-0.04, 0.04)))
            # Few decimals now and then: rounding ties are then common.
            v = v - v % (step * (10 if rng.random() < 0.4 else 1))
            out[d] = max(v, 1)
            d += timedelta(days=rng.randint(1, 6))
        if self.k["edge"] > 0:
            for y, m in self.months:  # new rates on a month's last and first day
                if self.rng.random() < 0.7:
                    out[month_end(y, m)] = max(1, int(lvl * (1 + rng.uniform(-0.05, 0.05))) // step * step)
                if self.rng.random() < 0.7:
                    nd = month_end(y, m) + timedelta(days=1)
                    out[nd] = max(1, int(lvl * (1 + rng.uniform(-0.05, 0.05))) // step * step)
        return sorted(out.items())

    def rate(self, cur, d):
        if cur == BASE:
            return MICRO
        found = None
        for day, v in self.rates[cur]:
            if day <= d:
                found = v
        return found

    # --- dates and amounts --------------------------------------------------------------------
    def day(self, cur=None):
        rng = self.rng
        while True:
            if rng.random() < self.k["edge"]:
                y, m = rng.choice(self.months)
                d = date(y, m, 1) if rng.random() < 0.6 else month_end(y, m)
            elif cur and rng.random() < self.k["sameday"]:
                d = rng.choice([x for x, _ in self.rates[cur] if self.first <= x <= self.last] or [self.first])
            else:
                d = self.first + timedelta(days=rng.randint(0, (self.last - self.first).days))
            if (d.year, d.month) == self.quiet:
                continue
            if self.kind == "plain" and (d.day == 1 or any(d == x for c in self.curs for x, _ in self.rates[c])):
                continue
            return d

    def cents(self, cur=None, d=None):
        """An amount in cents; in a foreign currency sometimes one whose base value is an exact
        half cent above an even cent, where half-even and half-up rounding part."""
        rng = self.rng
        c = rng.choice([rng.randint(500, 90000), rng.randint(100000, 2500000), rng.randint(1, 9) * 100000])
        if cur and cur != BASE and rng.random() < self.k["ties"]:
            r = self.rate(cur, d)
            for n in range(c, c + 4000):
                q, rem = divmod(n * r, MICRO)
                if rem * 2 == MICRO and q % 2 == 0:
                    return n
        return c

    def text(self, c):
        return money_text(c, grouped=abs(c) >= 100000 and self.rng.random() < self.k["grouped"], bare=self.rng.random() < 0.3)

    # --- transactions ---------------------------------------------------------------------------
    def desc(self):
        self.serial += self.rng.randint(1, 7)
        return "%s %d" % (self.rng.choice(WORDS), self.serial)

    def add(self, d, posts, fate=None, dtext=None, desc=None):
        t = dict(date=d, dtext=dtext or d.isoformat(), desc=desc or self.desc(), flag=self.rng.choice(["", "", "*", "!"]),
                 posts=[(a, c, cur, self.text(c)) for a, c, cur in posts], fate=fate)
        if fate is None:
            sig = self.sig(t)
            if sig in self.sigs:
                return None
            self.sigs.add(sig)
        self.txns.append(t)
        return t

    @staticmethod
    def sig(t):
        return (t["dtext"], t["desc"], tuple(sorted((a, c, cur) for a, c, cur, _ in t["posts"])))

    def foreign(self):
        return [a for a, (t, c) in KIND_OF.items() if c in self.curs and c != BASE]

    def random_txn(self):
        rng = self.rng
        shape = rng.choice(["base", "base3", "fx", "fx", "fx", "foreign3", "foreign2"])
        if shape == "base":
            d = self.day()
            c = self.cents()
            a, b = rng.sample(["expense:rent", "expense:office", "expense:fees", "income:sales", "equity:capital",
                               "liability:vat", "income:interest"], 2)
            return self.add(d, [(a, c, BASE), ("asset:bank-eur", -c, BASE)] if rng.random() < 0.7 else [(a, c, BASE), (b, -c, BASE)])
        if shape == "base3":
            d = self.day()
            c1, c2 = self.cents(), rng.randint(100, 50000)
            return self.add(d, [("expense:rent", c1, BASE), ("liability:vat", c2, BASE), ("asset:bank-eur", -c1 - c2, BASE)])
        accs = self.foreign()
        acc = rng.choice(accs)
        cur = KIND_OF[acc][1]
        d = self.day(cur)
        c = self.cents(cur, d)
        if shape == "fx":
            # A foreign amount against a base account: the base side is the converted value give or
            # take a little (bank spread); the difference goes to equity:conversion.
            r = self.rate(cur, d)
            sign = rng.choice([1, -1])
            base_side = -sign * he_cents(c * r) + rng.choice([0, 0, rng.randint(-50, 50)])
            other = rng.choice(["expense:travel", "expense:software", "income:sales", "asset:bank-eur"])
            return self.add(d, [(acc, sign * c, cur), (other, base_side, BASE)])
        same = [a for a in accs if KIND_OF[a][1] == cur and a != acc]
        if not same:
            return None
        if shape == "foreign2":
            return self.add(d, [(acc, c, cur), (rng.choice(same), -c, cur)])
        # Three postings in one foreign currency: their base values may not sum to zero.
        part = rng.randint(1, max(1, abs(c) - 1))
        return self.add(d, [(acc, -c, cur), (rng.choice(same), part, cur), (rng.choice(same + [acc]), c - part, cur)])

    def build(self):
        n = self.rng.randint(30, 42)
        while len(self.txns) < n:
            self.random_txn()
        if self.kind == "rates":
            # A transaction on the very first rate row of a currency.
            cur = self.rng.choice(self.curs)
            d0 = self.rates[cur][0][0]
            acc = [a for a in self.foreign() if KIND_OF[a][1] == cur][0]
            c = self.cents(cur, d0)
            self.add(d0, [(acc, c, cur), ("income:sales", -he_cents(c * self.rate(cur, d0)), BASE)])
        if self.kind == "audit":
            self.plant_rejections()
        self.order()

    def order(self):
        if self.kind in ("plain", "posting", "periods", "revalue"):
            self.txns.sort(key=lambda t: (t["date"], t["desc"]))
        elif self.kind == "rates":
            self.rng.shuffle(self.txns)
        else:  # audit: dated order, rejections placed among them as planned
            self.txns.sort(key=lambda t: (t.get("order", t["date"].toordinal() if t["date"] else 0), t["desc"]))

    # --- audit ------------------------------------------------------------------------------------
    def plant_rejections(self):
        rng = self.rng
        accepted = [t for t in self.txns if t["fate"] is None]
        for t in self.txns:
            t["order"] = t["date"].toordinal()

        def at(d, posts, fate, **kw):
            t = self.add(d, posts, fate=fate, **kw)
            t["order"] = d.toordinal() if d else rng.choice(accepted)["order"]
            return t

        d = self.day()
        c = self.cents()
        bad = rng.choice(["2026-02-29", "2026-02-30", "2026-04-31", "2026-06-31", "2026-09-31", "2026-13-02"])
        t = at(None, [("expense:office", c, BASE), ("asset:bank-eur", -c, BASE)], "bad_date", dtext=bad)
        t["order"] = rng.choice(accepted)["order"]
        # Bad date and an unknown account: the date is reported.
        t = at(None, [("expense:ofice", c, BASE), ("asset:bank-eur", -c, BASE)], "bad_date", dtext=bad[:8] + "31" if bad[5:7] in ("04", "06", "09") else bad)
        t["order"] = rng.choice(accepted)["order"]
        for typo in ("expense:ofice", "asset:bank-euro", "Expense:rent"):
            c = self.cents()
            # Unknown account together with a currency mismatch elsewhere: unknown_account comes first.
            posts = [(typo, c, BASE), ("asset:bank-usd" if "USD" in self.curs and typo != "asset:bank-euro" else "asset:bank-eur",
                                       -c, BASE)]
            at(self.day(), posts, "unknown_account")
        for _ in range(2):
            acc = rng.choice(self.foreign())
            c = self.cents()
            at(self.day(), [(acc, c, BASE), ("asset:bank-eur", -c, BASE)], "currency_mismatch")
        # JPY: an account and rates that start mid-book; before the first row there is no rate.
        jd = self.first + timedelta(days=rng.randint(20, 40))
        self.rates["JPY"] = [(jd, LEVEL["JPY"] + rng.randint(-200, 200))]
        ACC_JPY = ("asset:bank-jpy", "asset", "JPY")
        self.extra = [ACC_JPY]
        c = rng.randint(100000, 9000000)
        at(jd - timedelta(days=rng.randint(1, 10)), [("asset:bank-jpy", c, "JPY"), ("income:sales", -he_cents(c * self.rates["JPY"][0][1]), BASE)], "no_rate")
        c2 = rng.randint(100000, 9000000)
        t = self.add(jd, [("asset:bank-jpy", c2, "JPY"), ("income:sales", -he_cents(c2 * self.rates["JPY"][0][1]), BASE)])
        t["order"] = jd.toordinal()
        # Unbalanced: one currency off by a cent; a lone posting; several currencies off by 1.01 base
        # (while exactly 1.00 is accepted, the difference going to equity:conversion).
        c = self.cents()
        at(self.day(), [("expense:fees", c, BASE), ("asset:bank-eur", -c + 1, BASE)], "unbalanced")
        at(self.day(), [("expense:fees", self.cents(), BASE)], "unbalanced")
        acc = rng.choice([a for a in self.foreign() if KIND_OF[a][0] == "asset"])
        cur = KIND_OF[acc][1]
        for off, fate in ((101, "unbalanced"), (-101, "unbalanced"), (100, None), (-100, None)):
            d = self.day(cur)
            c = self.cents(cur, d)
            t = self.add(d, [(acc, c, cur), ("income:sales", -he_cents(c * self.rate(cur, d)) + off, BASE)], fate=fate)
            if t is not None:
                t["order"] = d.toordinal()
        # Duplicates of accepted transactions: postings reordered and amounts spelled differently
        # still match; a copy of a rejected transaction keeps its own reason; a copy on another
        # date is a new transaction.
        for src in rng.sample(accepted, 3):
            posts = [(a, c, cur) for a, c, cur, _ in src["posts"]]
            rng.shuffle(posts)
            t = self.add(src["date"], posts, fate="duplicate", desc=src["desc"])
            t["order"] = src["order"] + rng.randint(0, 5)
            t["dtext"] = src["dtext"]
        # (a base-currency source: its balance does not depend on the day's rates)
        src = rng.choice([t for t in accepted if all(p[2] == BASE for p in t["posts"])] or [None])
        nd = src["date"] + timedelta(days=1) if src else self.first - timedelta(days=1)
        if nd <= self.last and (nd.year, nd.month) != self.quiet:
            t = self.add(nd, [(a, c, cur) for a, c, cur, _ in src["posts"]], desc=src["desc"])
            if t is not None:
                t["order"] = nd.toordinal()
        rej = [t for t in self.txns if t["fate"] == "unbalanced"][0]
        t = self.add(rej["date"], [(a, c, cur) for a, c, cur, _ in rej["posts"]], fate="unbalanced", desc=rej["desc"])
        t["order"] = rej["order"] + 1

    # --- rendering and answers -------------------------------------------------------------------
    def files(self):
        rng = self.rng
        lines, where = ["; journal exported %s" % self.last.isoformat(), ""], {}
        for i, t in enumerate(self.txns):
            if rng.random() < 0.1:
                lines.append(rng.choice(["; reviewed", "# batch %d" % i, "    ; note: see attachment"]))
            head = t["dtext"] + (" " + t["flag"] if t["flag"] else "") + " " + t["desc"]
            where[id(t)] = len(lines) + 1
            lines.append(head)
            ind = rng.choice(["    ", "  ", "\t"])
            for a, c, cur, txt in t["posts"]:
                gap = rng.choice(["  ", "    ", "\t", "        "])
                lines.append("%s%s%s%s %s" % (ind, a, gap, txt.rjust(rng.choice([0, 12])) if gap != "\t" else txt, cur))
            if rng.random() < 0.8:
                lines.append("")
        self.lines_of = where
        accounts = list(ACCOUNTS) + getattr(self, "extra", [])
        arows = [list(a) for a in accounts]
        rng.shuffle(arows)
        rrows = [[d.isoformat(), c, rate_text(v)] for c, s in self.rates.items() for d, v in s]
        if self.kind in ("rates", "audit"):
            rng.shuffle(rrows)
        else:
            rrows.sort()
        return {"book.json": json.dumps({"name": "Book %d" % self.serial, "base_currency": BASE}).encode(),
                "accounts.csv": to_csv(["account", "type", "currency"], arows),
                "rates.csv": to_csv(["date", "currency", "rate"], rrows),
                "journal.txt": ("\n".join(lines) + "\n").encode()}

    def answers(self):
        """(report, revaluation, audit): report {(period, account): (currency, balance, base)} in
        cents; revaluation {(period, account): (currency, balance, rate, revalued, base, unrealised)};
        audit [(line, date text, reason)]."""
        cur_of = {a: c for a, _, c in list(ACCOUNTS) + getattr(self, "extra", [])}
        cur_of[CONV] = BASE
        type_of = {a: t for a, t, _ in list(ACCOUNTS) + getattr(self, "extra", [])}
        moves = []  # (date, account, cents, base cents)
        for t in self.txns:
            if t["fate"] is not None:
                continue
            vals = [(a, c, he_cents(c * self.rate(cur, t["date"])) if cur != BASE else c) for a, c, cur, _ in t["posts"]]
            moves += [(t["date"], a, c, b) for a, c, b in vals]
            off = sum(b for _, _, b in vals)
            if off:
                moves.append((t["date"], CONV, -off, -off))
        days = [m[0] for m in moves]
        y, m = min(days).year, min(days).month
        report, reval = {}, {}
        while (y, m) <= (max(days).year, max(days).month):
            end = month_end(y, m)
            key = "%04d-%02d" % (y, m)
            tot = {}
            for d, a, c, b in moves:
                if d <= end:
                    n0, b0 = tot.get(a, (0, 0))
                    tot[a] = (n0 + c, b0 + b)
            for a, (n0, b0) in tot.items():
                report[(key, a)] = (cur_of[a], n0, b0)
                if cur_of[a] != BASE and type_of.get(a) in ("asset", "liability"):
                    r = self.rate(cur_of[a], end)
                    if r is not None:
                        v = he_cents(n0 * r)
                        reval[(key, a)] = (cur_of[a], n0, r, v, b0, v - b0)
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
        audit = sorted((self.lines_of[id(t)], t["dtext"], t["fate"]) for t in self.txns if t["fate"] is not None)
        return report, reval, audit


def to_csv(header, rows):
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return b.getvalue().encode()


def build(rng, kind):
    """kind: plain | posting | periods | rates | revalue | audit. Returns (files, answers)."""
    p = Plan(rng, kind)
    p.build()
    files = p.files()
    return files, p.answers()
