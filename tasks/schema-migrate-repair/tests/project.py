"""The shipped legacy database (/app/legacy) and the deployments to audit (/app/deployments), as
planned data, and the grading of the legacy upgrade.

The legacy database is the state after V1..V4 made by hand (no history). Its planted customers,
orders and products give every derived row after the upgrade to version 9 by plain Python sums
(an independent method); the history expected is the baseline at 4, V5..V9 in order and the one
repeatable, each checksum taken from the planted text before it was written with CRLF ends."""
import hashlib
import sqlite3

import gen
from lh import Rng

SCRIPTS = [
    # (file name, canonical text, line ends)
    ("V1__customers.sql", "CREATE TABLE customers (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL,\n  city TEXT NOT NULL\n);\n", "lf"),
    ("V2__orders.sql", "CREATE TABLE orders (\n  id INTEGER PRIMARY KEY,\n  customer_id INTEGER NOT NULL REFERENCES customers (id),\n"
     "  amount_cents INTEGER NOT NULL,\n  placed_on TEXT NOT NULL\n);\n", "crlf"),
    ("V3__products.sql", "CREATE TABLE products (\n  sku TEXT PRIMARY KEY,\n  title TEXT NOT NULL,\n  price_cents INTEGER NOT NULL\n);\n", "lf"),
    ("V3_1__orders_sku.sql", "ALTER TABLE orders ADD COLUMN sku TEXT REFERENCES products (sku);\n", "crlf"),
    ("V4__regions.sql", "CREATE TABLE regions (code TEXT PRIMARY KEY, name TEXT NOT NULL);\n"
     "INSERT INTO regions VALUES ('N', 'North; inland'), ('C', 'Coast');\n", "lf"),
    ("V5__customer_region.sql", "-- every customer gets a region from its city\nALTER TABLE customers ADD COLUMN region TEXT;\n"
     "UPDATE customers SET region = CASE WHEN city IN ('Porto', 'Nice', 'Bari') THEN 'C' ELSE 'N' END;\n", "crlf"),
    ("V6__order_status.sql", "ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'open';\n"
     "UPDATE orders SET status = 'closed' WHERE placed_on < '2025-03-01';\n", "bom"),
    ("V7__customer_totals.sql", "CREATE TABLE customer_totals (\n  customer_id INTEGER PRIMARY KEY,\n  orders INTEGER NOT NULL,\n"
     "  total_cents INTEGER NOT NULL\n);\nINSERT INTO customer_totals (customer_id, orders, total_cents)\n"
     "  SELECT customer_id, count(*), sum(amount_cents) FROM orders GROUP BY customer_id;\n", "lf"),
    ("V8__price_history.sql", "CREATE TABLE price_history (sku TEXT NOT NULL, price_cents INTEGER NOT NULL, since TEXT NOT NULL);\n"
     "INSERT INTO price_history SELECT sku, price_cents, '2025-01-01' FROM products;\n", "crlf"),
    ("V9__region_totals.sql", "CREATE TABLE region_totals (region TEXT PRIMARY KEY, customers INTEGER NOT NULL, total_cents INTEGER NOT NULL);\n"
     "INSERT INTO region_totals\n  SELECT c.region, count(*), coalesce(sum(t.total_cents), 0)\n"
     "  FROM customers c LEFT JOIN customer_totals t ON t.customer_id = c.id GROUP BY c.region;\n", "lf"),
    ("V10__archive_closed.sql", "CREATE TABLE orders_archive AS SELECT * FROM orders WHERE status = 'closed';\n"
     "DELETE FROM orders WHERE status = 'closed';\n", "lf"),
    ("U10__archive_closed.sql", "INSERT INTO orders SELECT * FROM orders_archive;\nDROP TABLE orders_archive;\n", "lf"),
    ("U9__region_totals.sql", "DROP TABLE region_totals;\n", "lf"),
    ("U8__price_history.sql", "DROP TABLE price_history;\n", "lf"),
    ("R__reporting_views.sql", "DROP VIEW IF EXISTS v_open_orders;\n"
     "CREATE VIEW v_open_orders AS SELECT o.id, c.name, o.amount_cents FROM orders o JOIN customers c ON c.id = o.customer_id\n"
     "  WHERE o.status = 'open';\n", "crlf"),
]
BASELINE = 4
TARGET = 9
CITIES = ["Porto", "Lyon", "Nice", "Graz", "Bari", "Turin", "Brno"]
DEPLOYMENTS = ["eu-west", "us-east", "ap-south"]


def data():
    rng = Rng("legacy-shop")
    customers = [(i, "customer %02d" % i, rng.pick(CITIES)) for i in range(1, 19)]
    products = [("SKU-%03d" % (i * 7), "item %d" % i, rng.int(150, 9900)) for i in range(1, 12)]
    orders = []
    for i in range(1, 61):
        cid = rng.int(1, 16)   # customers 17 and 18 never ordered
        month = rng.int(1, 6)
        orders.append((i, cid, rng.int(100, 50000), "2025-%02d-%02d" % (month, rng.int(1, 28)), rng.pick(products)[0]))
    return customers, products, orders


def files():
    out = {}
    for name, text, style in SCRIPTS:
        out[name] = gen.encode(None, text, style)
    out["README.md"] = (b"Shop schema migrations. V10 (archiving) is not approved for production yet.\n")
    return out


def build_legacy(path):
    conn = sqlite3.connect(path)
    for name, text, _ in SCRIPTS:
        if name.startswith("V") and name.split("__")[0] in ("V1", "V2", "V3", "V3_1", "V4"):
            conn.executescript(text)
    customers, products, orders = data()
    conn.executemany("INSERT INTO customers VALUES (?, ?, ?)", customers)
    conn.executemany("INSERT INTO products VALUES (?, ?, ?)", products)
    conn.executemany("INSERT INTO orders (id, customer_id, amount_cents, placed_on, sku) VALUES (?, ?, ?, ?, ?)", orders)
    conn.commit()
    conn.close()


def expected():
    customers, products, orders = data()
    region = {c[0]: ("C" if c[2] in ("Porto", "Nice", "Bari") else "N") for c in customers}
    totals = {}
    for o in orders:
        n, s = totals.get(o[1], (0, 0))
        totals[o[1]] = (n + 1, s + o[2])
    rt = {}
    for cid, r in region.items():
        n, s = rt.get(r, (0, 0))
        rt[r] = (n + 1, s + totals.get(cid, (0, 0))[1])
    closed = sum(1 for o in orders if o[3] < "2025-03-01")
    hist = [(str(BASELINE), "<< Baseline >>", "BASELINE", "<< Baseline >>", None, 1)]
    for name, text, _ in SCRIPTS:
        head = name.split("__")[0]
        if head[0] == "V" and head[1:].replace("_", ".").split(".")[0].isdigit():
            ver = head[1:].replace("_", ".")
            if BASELINE < float(ver) <= TARGET:
                hist.append((ver, name.split("__")[1][:-4].replace("_", " "), "SQL", name, gen.digest(text), 1))
    for name, text, _ in SCRIPTS:
        if name.startswith("R__"):
            hist.append((None, name[3:-4].replace("_", " "), "REPEATABLE", name, gen.digest(text), 1))
    counts = {"customers": len(customers), "orders": len(orders), "products": len(products), "regions": 2,
              "customer_totals": len(totals), "price_history": len(products), "region_totals": len(rt)}
    return {
        "history": hist,
        "counts": counts,
        "customer_totals": sorted((cid, n, s) for cid, (n, s) in totals.items()),
        "region_totals": sorted((r, n, s) for r, (n, s) in rt.items()),
        "closed": closed,
        "report": ["table,rows"] + ["%s,%d" % (t, counts[t]) for t in sorted(counts)],
    }


def deployment(name):
    return gen.case_audit(Rng("deployment-" + name))


def grade_legacy(db, rc, report):
    """Five equal parts: exit status and report, history, tables and their counts, the derived
    tables' rows, the order statuses."""
    want = expected()
    parts, notes = [], []
    got_report = [ln.strip() for ln in (report or "").strip().split("\n") if ln.strip()]
    parts.append(1.0 if rc == 0 and got_report == want["report"] else 0.0)
    try:
        conn = sqlite3.connect(db)
        hist = [tuple(r) for r in conn.execute(
            "SELECT version, description, type, script, checksum, success FROM schema_history ORDER BY rank")]
        parts.append(1.0 if hist == want["history"] else 0.0)
        tables = sorted(r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_history'"))
        counts = {t: conn.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0] for t in tables}
        parts.append(1.0 if counts == want["counts"] else 0.0)
        ct = sorted(tuple(r) for r in conn.execute("SELECT customer_id, orders, total_cents FROM customer_totals"))
        rt = sorted(tuple(r) for r in conn.execute("SELECT region, customers, total_cents FROM region_totals"))
        parts.append(1.0 if (ct == want["customer_totals"] and rt == want["region_totals"]) else 0.0)
        closed = conn.execute("SELECT count(*) FROM orders WHERE status = 'closed'").fetchone()[0]
        views = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'")]
        parts.append(1.0 if (closed == want["closed"] and views == ["v_open_orders"]) else 0.0)
        conn.close()
    except Exception as e:
        notes.append("database: %s" % e)
    while len(parts) < 5:
        parts.append(0.0)
    return sum(parts) / 5, "legacy parts %s%s" % ("".join(str(int(x)) for x in parts), ("; " + "; ".join(notes)) if notes else "")


def checksum_hex(data):
    return hashlib.sha256(data).hexdigest()
