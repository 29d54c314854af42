"""Reads a month folder's ledger, rate table and settings."""
import csv, json, os
from datetime import date
from decimal import Decimal

from . import refs
from .fx import Rates


def _rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [{k.strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]


def load(month_dir):
    cfg = json.load(open(os.path.join(month_dir, "config.json")))
    invoices = {}
    for r in _rows(os.path.join(month_dir, "invoices.csv")):
        iid = r["invoice_id"].upper()
        amount = Decimal(r["amount"])
        invoices[iid] = {"id": iid, "customer": refs.norm_name(r["customer"]), "due": date.fromisoformat(r["due_date"]),
                         "currency": r["currency"].upper(), "amount": amount, "open": amount}
    rates = Rates((date.fromisoformat(r["date"]), r["currency"].upper(), Decimal(r["eur_per_unit"]))
                  for r in _rows(os.path.join(month_dir, "fx.csv")))
    return date.fromisoformat(cfg["report_date"]), invoices, rates
