#!/usr/bin/env python3
"""Accounts-receivable reconciliation: reference parsing, FX conversion, allocation, aging."""
import csv, json, os, re, sys
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

REF = re.compile(r"inv(?:oice)?\s*[#:.\-/ ]*\s*(\d{4})\s*[-/ ]\s*0*(\d{1,4})(?!\d)", re.I)
SUFFIXES = {"ltd", "gmbh", "inc", "llc", "s.a", "sa", "ag", "bv", "plc"}
C = Decimal("0.01")


def q(x):
    return x.quantize(C, rounding=ROUND_HALF_UP)


def norm_name(s):
    words = s.lower().replace(",", " ").split()
    while words and words[-1].rstrip(".") in SUFFIXES:
        words.pop()
    return " ".join(words)


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [{k.strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]


def main():
    src, out = sys.argv[1], sys.argv[2]
    cfg = json.load(open(os.path.join(src, "config.json")))
    report = date.fromisoformat(cfg["report_date"])
    fx = {}
    for r in rows(os.path.join(src, "fx.csv")):
        fx.setdefault(r["currency"], []).append((date.fromisoformat(r["date"]), Decimal(r["eur_per_unit"])))
    for v in fx.values():
        v.sort()

    def rate(cur, d):
        if cur == "EUR":
            return Decimal(1)
        best = None
        for dd, r in fx[cur]:
            if dd <= d:
                best = r
        return best

    def conv(x, a, b, d):
        return x if a == b else q(x * rate(a, d) / rate(b, d))

    inv = {}
    for r in rows(os.path.join(src, "invoices.csv")):
        inv[r["invoice_id"].upper()] = dict(id=r["invoice_id"].upper(), cust=norm_name(r["customer"]), due=date.fromisoformat(r["due_date"]),
                                            cur=r["currency"], amount=Decimal(r["amount"]), open=Decimal(r["amount"]))
    pays = sorted(rows(os.path.join(src, "payments.csv")), key=lambda p: (p["date"], p["payment_id"]))
    unapplied = []
    for p in pays:
        d = date.fromisoformat(p["date"])
        rem, pc = Decimal(p["amount"]), p["currency"]
        ids = []
        for m in REF.finditer(p["reference"]):
            k = "INV-%s-%04d" % (m.group(1), int(m.group(2)))
            if k in inv and k not in ids:
                ids.append(k)
        refs = sorted((inv[k] for k in ids if inv[k]["open"] > 0), key=lambda i: (i["due"], i["id"]))
        if ids:
            for i in refs:
                if rem <= 0:
                    break
                need = conv(i["open"], i["cur"], pc, d)
                if rem >= need:
                    i["open"] = Decimal("0.00")
                    rem -= need
                else:
                    i["open"] = max(Decimal("0.00"), i["open"] - conv(rem, pc, i["cur"], d))
                    rem = Decimal("0.00")
        else:
            cands = [i for i in inv.values() if i["open"] > 0 and i["cust"] == norm_name(p["payer"])
                     and conv(i["open"], i["cur"], pc, d) == rem]
            if cands:
                i = min(cands, key=lambda i: (i["due"], i["id"]))
                i["open"] = Decimal("0.00")
                rem = Decimal("0.00")
        if rem > 0:
            unapplied.append({"payment_id": p["payment_id"], "amount_eur": str(conv(rem, pc, "EUR", d))})
    os.makedirs(out, exist_ok=True)
    aging = {"current": Decimal(0), "1-30": Decimal(0), "31-60": Decimal(0), "61-90": Decimal(0), "90+": Decimal(0)}
    with open(os.path.join(out, "invoices.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["invoice_id", "status", "open_amount", "days_overdue"])
        for k in sorted(inv):
            i = inv[k]
            st = "paid" if i["open"] == 0 else "partial" if i["open"] < i["amount"] else "open"
            od = max(0, (report - i["due"]).days) if i["open"] > 0 else 0
            w.writerow([k, st, "%.2f" % i["open"], od])
            if i["open"] > 0:
                b = "current" if od == 0 else "1-30" if od <= 30 else "31-60" if od <= 60 else "61-90" if od <= 90 else "90+"
                aging[b] += conv(i["open"], i["cur"], "EUR", report)
    json.dump({"unapplied": unapplied, "aging_eur": {k: "%.2f" % v for k, v in aging.items()}},
              open(os.path.join(out, "summary.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
