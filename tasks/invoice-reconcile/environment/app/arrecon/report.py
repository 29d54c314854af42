"""Writes the close report: invoices.csv, bookings.csv, summary.json."""
import csv, json, os

from .aging import aging, days_overdue


def write(out_dir, report_date, invoices, bookings, unapplied, fx):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "invoices.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["invoice_id", "status", "open_amount", "days_overdue"])
        for k in sorted(invoices):
            inv = invoices[k]
            status = "paid" if inv["open"] == 0 else "partial" if inv["open"] < inv["amount"] else "open"
            w.writerow([k, status, "%.2f" % inv["open"], days_overdue(inv, report_date)])
    with open(os.path.join(out_dir, "bookings.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["payment_id", "invoice_id", "amount", "currency"])
        for pid, iid, amount, cur in bookings:
            w.writerow([pid, iid, "%.2f" % amount, cur])
    summary = {"unapplied": [{"payment_id": pid, "amount_eur": "%.2f" % eur} for pid, eur in unapplied],
               "aging_eur": {k: "%.2f" % v for k, v in aging(invoices, report_date, fx).items()}}
    with open(os.path.join(out_dir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
