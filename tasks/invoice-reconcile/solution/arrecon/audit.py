"""Audits a close report's bookings against the policy's own close of the same month."""
import csv
from decimal import Decimal

ZERO = Decimal("0.00")


def read_bookings(path):
    """(payment_id, invoice_id) -> amount, summed over repeated rows."""
    got = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            r = {k.strip(): (v or "").strip() for k, v in r.items()}
            key = (r["payment_id"], r["invoice_id"].upper())
            got[key] = got.get(key, ZERO) + Decimal(r["amount"])
    return got


def findings(reported, correct):
    rows = []
    for key in sorted(set(reported) | set(correct)):
        was, right = reported.get(key, ZERO), correct.get(key, ZERO)
        if was == right:
            continue
        if key[1] == "UNAPPLIED":
            reason = "unapplied_wrong"
        elif key not in reported:
            reason = "missed_application"
        elif key not in correct:
            reason = "spurious_application"
        else:
            reason = "wrong_amount"
        rows.append((key[0], key[1], reason, was, right))
    return rows


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["payment_id", "invoice_id", "reason", "reported", "corrected"])
        for pid, iid, reason, was, right in rows:
            w.writerow([pid, iid, reason, "%.2f" % was, "%.2f" % right])
