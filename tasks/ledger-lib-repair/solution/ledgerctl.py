#!/usr/bin/env python3
"""ledgerctl: command-line front end of ledgerkit.

    python3 ledgerctl.py report  BOOK_DIR OUT.csv   cumulative balances per period
    python3 ledgerctl.py revalue BOOK_DIR OUT.csv   period-end revaluation of foreign balances
    python3 ledgerctl.py audit   BOOK_DIR OUT.csv   rejected transactions with their reasons

Exit status 0 on success, 2 when the book cannot be loaded (the message says why).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ledgerkit.audit import write_audit  # noqa: E402
from ledgerkit.book import Book, BookError  # noqa: E402
from ledgerkit.report import write_report  # noqa: E402
from ledgerkit.revalue import write_revaluation  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ledgerctl", description="double-entry ledger reports")
    sub = ap.add_subparsers(dest="command", required=True)
    for name, text in (("report", "cumulative balances per period"),
                       ("revalue", "period-end revaluation of foreign-currency balances"),
                       ("audit", "rejected transactions and their reasons")):
        p = sub.add_parser(name, help=text)
        p.add_argument("book", help="book folder (book.json, accounts.csv, rates.csv, journal.txt)")
        p.add_argument("out", help="output CSV file")
    args = ap.parse_args(argv)
    try:
        book = Book.load(args.book)
    except BookError as e:
        print("ledgerctl: %s" % e, file=sys.stderr)
        return 2
    entries, rejected = book.post()
    if args.command == "report":
        n = write_report(args.out, book, entries)
    elif args.command == "revalue":
        n = write_revaluation(args.out, book, entries)
    else:
        n = write_audit(args.out, rejected)
    print("%s: %d rows -> %s" % (args.command, n, args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
