#!/usr/bin/env python3
"""ledgerctl: command-line front end of ledgerkit.

    python3 ledgerctl.py report  BOOK_DIR OUT.csv   cumulative balances per period

Exit status 0 on success, 2 when the book cannot be loaded or posted (the message says why).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ledgerkit.book import Book, BookError  # noqa: E402
from ledgerkit.report import write_balances  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ledgerctl", description="double-entry ledger reports")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("report", help="cumulative balances per period")
    p.add_argument("book", help="book folder (book.json, accounts.csv, rates.csv, journal.txt)")
    p.add_argument("out", help="output CSV file")
    args = ap.parse_args(argv)
    try:
        book = Book.load(args.book)
        entries = book.post()
    except BookError as e:
        print("ledgerctl: %s" % e, file=sys.stderr)
        return 2
    n = write_balances(args.out, book, entries)
    print("%s: %d rows -> %s" % (args.command, n, args.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
