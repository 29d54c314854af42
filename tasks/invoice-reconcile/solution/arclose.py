#!/usr/bin/env python3
"""Month-end receivables close.

  arclose.py close MONTH_DIR OUT_DIR           reconcile the month's statements against the ledger
  arclose.py audit MONTH_DIR REPORT_DIR OUT.csv   list the mis-bookings of an earlier close report
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arrecon import audit, ledger, report, statements  # noqa: E402
from arrecon.allocate import allocate  # noqa: E402


def close(month_dir):
    report_date, invoices, fx = ledger.load(month_dir)
    bookings, unapplied = allocate(invoices, statements.load(month_dir), fx)
    return report_date, invoices, bookings, unapplied, fx


def main(argv):
    if len(argv) == 3 and argv[0] == "close":
        report_date, invoices, bookings, unapplied, fx = close(argv[1])
        report.write(argv[2], report_date, invoices, bookings, unapplied, fx)
        return 0
    if len(argv) == 4 and argv[0] == "audit":
        _, _, bookings, _, _ = close(argv[1])
        correct = {}
        for pid, iid, amount, _cur in bookings:
            correct[(pid, iid)] = correct.get((pid, iid), 0) + amount
        reported = audit.read_bookings(os.path.join(argv[2], "bookings.csv"))
        audit.write(argv[3], audit.findings(reported, correct))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
