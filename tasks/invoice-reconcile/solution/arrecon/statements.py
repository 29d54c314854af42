"""Bank statement import: Nordbank CSV exports (*.csv) and tagged text statements (*.txt)."""
import csv, os
from datetime import date
from decimal import Decimal


def _dmy(text):
    d, m, y = text.strip().split(".")
    return date(int(y), int(m), int(d))


def _ymd(text):
    t = text.strip()
    return date(int(t[:4]), int(t[4:6]), int(t[6:8]))


def _decimal_comma(text):
    """'1.234,56' -> Decimal('1234.56'); '-' marks a debit."""
    return Decimal(text.strip().replace(".", "").replace(",", "."))


def read_nordbank(path):
    """';'-separated export; credits only (debits are outgoing transfers); the payment date is the value date."""
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter=";"):
            r = {k.strip(): (v or "").strip() for k, v in r.items()}
            amount = _decimal_comma(r["amount"])
            if amount <= 0:
                continue
            out.append({"id": r["txn_id"], "date": _dmy(r["value_date"]), "currency": r["currency"].upper(),
                        "amount": amount, "payer": r["counterparty"], "reference": r["purpose"]})
    return out


def read_tagged(path):
    """Blocks of ':TAG: value' lines ended by a line '-'; several :REF: lines form one reference."""
    out, cur = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines() + ["-"]
    for line in lines:
        if line.strip() == "-":
            if cur is not None and cur.get("side") == "C":
                cur["reference"] = " ".join(cur.pop("refs"))
                cur.pop("side")
                out.append(cur)
            cur = None
            continue
        if not line.startswith(":"):
            continue
        tag, _, value = line[1:].partition(":")
        value = value.strip()
        if cur is None:
            cur = {"refs": [], "payer": ""}
        if tag == "TXN":
            cur["id"] = value
        elif tag == "VALUE":
            cur["date"] = _ymd(value)
        elif tag == "AMT":
            side, rest = value[0], value[1:].split()
            cur["side"], cur["amount"], cur["currency"] = side, Decimal(rest[0]), rest[1].upper()
        elif tag == "BY":
            cur["payer"] = value
        elif tag == "REF":
            cur["refs"].append(value)
    return out


def load(month_dir):
    """Every credit in MONTH_DIR/statements, whatever file it came from."""
    folder = os.path.join(month_dir, "statements")
    payments = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.lower().endswith(".csv"):
            payments += read_nordbank(path)
        elif name.lower().endswith(".txt"):
            payments += read_tagged(path)
    return payments
