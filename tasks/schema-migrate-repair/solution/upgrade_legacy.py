#!/usr/bin/env python3
"""Upgrades a copy of the legacy shop database to version 9 and prints the row-count report.

The legacy database was built by hand up to V4 (customers with city, orders with sku, products,
regions with two rows; no customers.region yet): baseline at 4, then migrate to 9 (V10 is not
approved)."""
import os
import sqlite3
import subprocess
import sys

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrate.py")


def main(db, folder):
    for args in (["baseline", db, "--version", "4"], ["migrate", db, folder, "--target", "9"]):
        rc = subprocess.call([sys.executable, TOOL] + args, stdout=subprocess.DEVNULL)
        if rc != 0:
            return rc
    conn = sqlite3.connect(db)
    names = sorted(r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_history'"))
    print("table,rows")
    for n in names:
        print("%s,%d" % (n, conn.execute('SELECT count(*) FROM "%s"' % n).fetchone()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
