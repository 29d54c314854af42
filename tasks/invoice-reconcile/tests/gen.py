"""Seeded receivables ledgers: invoices, payments with messy references, daily FX rates."""
import csv, io, json
from datetime import date, timedelta

CUSTOMERS = ["Acme Tools", "Birch & Daughters", "Calder Systems", "Dunmore Shipping", "Elbe Logistik", "Fjord Analytics", "Granite Health"]
SUFFIX = ["Ltd", "Ltd.", "GmbH", "Inc.", "LLC", "S.A.", "AG", "plc"]
CURS = ["USD", "GBP", "CHF", "SEK"]


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


def build(rng, kind):
    """kind: plain | references | fx | allocation."""
    start = date(2026, rng.randint(1, 4), rng.randint(1, 28))
    report = start + timedelta(days=rng.randint(120, 200))
    custs = rng.sample(CUSTOMERS, 4)
    legal = {c: rng.choice(SUFFIX) for c in custs}
    multi = kind in ("fx", "allocation")
    rates = {}
    d = start - timedelta(days=10)
    while d <= report:
        if d.weekday() < 5 or not multi:
            for c in CURS:
                base = {"USD": 0.92, "GBP": 1.17, "CHF": 1.05, "SEK": 0.088}[c]
                rates[(d, c)] = round(base * (1 + rng.uniform(-0.03, 0.03)), 6)
        d += timedelta(days=1)
    invoices = []
    for k in range(rng.randint(12, 20)):
        c = rng.choice(custs)
        issue = start + timedelta(days=rng.randint(0, 100))
        cur = rng.choice(["EUR"] + CURS) if multi else "EUR"
        iid = "INV-%d-%04d" % (issue.year, rng.randint(1, 9999))
        invoices.append(dict(id=iid, cust=c, issue=issue, due=issue + timedelta(days=rng.choice([14, 30, 45, 60])), cur=cur,
                             amount=round(rng.uniform(80, 9000), 2)))
    ids = set()
    invoices = [i for i in invoices if not (i["id"] in ids or ids.add(i["id"]))]
    pays = []
    messy = kind in ("references", "allocation")

    def rate(cur, dd):
        if cur == "EUR":
            return 1.0
        while (dd, cur) not in rates:
            dd -= timedelta(days=1)
        return rates[(dd, cur)]

    for i in invoices:
        r = rng.random()
        if r < 0.2:
            continue  # unpaid
        pd = i["issue"] + timedelta(days=rng.randint(3, 80))
        if pd > report:
            continue
        pc = i["cur"] if not multi or rng.random() < 0.5 else rng.choice(["EUR"] + CURS)
        amt = round(i["amount"] * rate(i["cur"], pd) / rate(pc, pd), 2)
        if kind == "allocation" and rng.random() < 0.35:
            amt = round(amt * rng.choice([0.5, 0.3, 1.2, 0.75]), 2)
        payer = i["cust"] if not messy else rng.choice([i["cust"], i["cust"].upper(), "%s %s" % (i["cust"], legal[i["cust"]]), "%s, %s" % (i["cust"], legal[i["cust"]])])
        ref = fmt_ref(rng, i["id"], messy)
        if messy and rng.random() < 0.2:
            ref = "payment thanks"  # no reference: matched by payer + exact amount
        pays.append([pd, pc, amt, payer, ("Ref " + ref) if rng.random() < 0.5 else ref])
    if kind in ("references", "allocation"):
        # One payment covering two invoices of the same customer.
        c = rng.choice(custs)
        mine = [i for i in invoices if i["cust"] == c][:2]
        if len(mine) == 2:
            pd = max(m["issue"] for m in mine) + timedelta(days=5)
            if pd <= report:
                amt = round(sum(m["amount"] * rate(m["cur"], pd) for m in mine) / rate("EUR", pd) + rng.choice([0, 0, 50]), 2)
                pays.append([pd, "EUR", amt, c, "%s and %s" % (fmt_ref(rng, mine[0]["id"], True), fmt_ref(rng, mine[1]["id"], True))])
    # A payment referencing an unknown invoice id, and one with no match at all.
    pays.append([report - timedelta(days=3), "EUR", round(rng.uniform(50, 500), 2), rng.choice(custs), "INV-1999-0001"])
    rng.shuffle(pays)
    pids = rng.sample(range(100000), len(pays))  # unique payment ids
    prow = [["P%05d" % pid, p[0].isoformat(), p[3], p[1], "%.2f" % p[2], p[4]] for pid, p in zip(pids, pays)]
    irow = [[i["id"], i["cust"] + ("" if not messy else " " + legal[i["cust"]]), i["issue"].isoformat(), i["due"].isoformat(), i["cur"], "%.2f" % i["amount"]] for i in invoices]
    rng.shuffle(irow)
    fx = [[dd.isoformat(), c, "%.6f" % v] for (dd, c), v in sorted(rates.items())]
    return {"invoices.csv": to_csv(["invoice_id", "customer", "issue_date", "due_date", "currency", "amount"], irow),
            "payments.csv": to_csv(["payment_id", "date", "payer", "currency", "amount", "reference"], prow),
            "fx.csv": to_csv(["date", "currency", "eur_per_unit"], fx),
            "config.json": json.dumps({"report_date": report.isoformat()}).encode()}
