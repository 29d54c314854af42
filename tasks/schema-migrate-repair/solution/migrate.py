#!/usr/bin/env python3
"""sqlmig command line: migrate, down, baseline, audit, history (see /app/docs/SPEC.md)."""
import argparse
import sys

from migrator import MigrationError, history
from migrator.audit import audit
from migrator.engine import ScriptFailed, baseline, connect, down, migrate
from migrator.scripts import parse_version, scan, version_key, version_text


def version_arg(text):
    return version_key(parse_version(text))


def main(argv):
    p = argparse.ArgumentParser(prog="migrate.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("migrate")
    m.add_argument("db")
    m.add_argument("dir")
    m.add_argument("--target")
    m.add_argument("--out-of-order", action="store_true")
    d = sub.add_parser("down")
    d.add_argument("db")
    d.add_argument("dir")
    d.add_argument("--target", required=True)
    b = sub.add_parser("baseline")
    b.add_argument("db")
    b.add_argument("--version", required=True)
    a = sub.add_parser("audit")
    a.add_argument("db")
    a.add_argument("dir")
    h = sub.add_parser("history")
    h.add_argument("db")
    try:
        args = p.parse_args(argv)
    except SystemExit:
        return 2
    try:
        conn = connect(args.db)
        if args.cmd == "history":
            print("rank,version,description,type,script,checksum,success")
            for r in history.rows(conn):
                print(",".join("" if x is None else str(x) for x in
                               (r.rank, r.version, r.description, r.type, r.script, r.checksum, r.success)))
            return 0
        if args.cmd == "baseline":
            baseline(conn, version_arg(args.version))
            print("baseline %s" % version_text(version_arg(args.version)))
            return 0
        versioned, undo, repeatable = scan(args.dir)
        if args.cmd == "audit":
            print("version,code")
            for k, code in audit(conn, versioned):
                print("%s,%s" % (version_text(k), code))
            return 0
        if args.cmd == "migrate":
            target = version_arg(args.target) if args.target else None
            migrate(conn, versioned, repeatable, target, args.out_of_order)
        else:
            down(conn, versioned, undo, version_arg(args.target))
        return 0
    except MigrationError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except ScriptFailed as e:
        print("failed: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
