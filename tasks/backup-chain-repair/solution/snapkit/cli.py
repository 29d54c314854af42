"""The command line of snap.py (docs/FORMAT.md section 8)."""
import argparse
import csv
import sys

from . import audit, backup, chunker, diff, restore, retention, snapshots, store


def out_csv(header, rows):
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(r)


def cmd_init(a):
    store.init(a.repo, a.utc_offset)


def cmd_chunk(a):
    with open(a.file, "rb") as f:
        data = f.read()
    out_csv(["offset", "length", "id"], [(off, len(p), chunker.chunk_id(p)) for off, p in chunker.split(data)])


def cmd_backup(a):
    snap = backup.run(a.repo, a.src, a.time)
    print(snap["id"])


def cmd_snapshots(a):
    store.config(a.repo)
    out_csv(["id", "time", "parent"], [(s["id"], s["time"], s["parent"] or "") for s in snapshots.load_all(a.repo)])


def cmd_restore(a):
    store.config(a.repo)
    restore.run(a.repo, snapshots.resolve(a.repo, a.snapshot), a.dest)


def cmd_diff(a):
    store.config(a.repo)
    out_csv(["change", "path"], diff.changes(snapshots.resolve(a.repo, a.a), snapshots.resolve(a.repo, a.b)))


def cmd_forget(a):
    import os
    cfg = store.config(a.repo)
    keep = {"last": a.keep_last, "daily": a.keep_daily, "weekly": a.keep_weekly, "monthly": a.keep_monthly}
    if not any(v > 0 for v in keep.values()):
        raise store.RepoError("forget needs at least one positive --keep-* option")
    rows = retention.plan(snapshots.load_all(a.repo), cfg.get("utc_offset_minutes", 0), keep)
    out_csv(["snapshot", "time", "action", "reasons"],
            [(s["id"], s["time"], "keep" if r else "remove", ";".join(r)) for s, r in rows])
    if not a.dry_run:
        for s, r in rows:
            if not r:
                os.remove(os.path.join(a.repo, "snapshots", s["id"] + ".json"))


def cmd_audit(a):
    store.config(a.repo)
    out_csv(["code", "snapshot", "path", "object"], audit.findings(a.repo))


def main(argv=None):
    p = argparse.ArgumentParser(prog="snap.py")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("init"); s.add_argument("repo"); s.add_argument("--utc-offset", type=int, default=0); s.set_defaults(fn=cmd_init)
    s = sub.add_parser("chunk"); s.add_argument("file"); s.set_defaults(fn=cmd_chunk)
    s = sub.add_parser("backup"); s.add_argument("repo"); s.add_argument("src"); s.add_argument("--time", required=True); s.set_defaults(fn=cmd_backup)
    s = sub.add_parser("snapshots"); s.add_argument("repo"); s.set_defaults(fn=cmd_snapshots)
    s = sub.add_parser("restore"); s.add_argument("repo"); s.add_argument("snapshot"); s.add_argument("dest"); s.set_defaults(fn=cmd_restore)
    s = sub.add_parser("diff"); s.add_argument("repo"); s.add_argument("a"); s.add_argument("b"); s.set_defaults(fn=cmd_diff)
    s = sub.add_parser("forget"); s.add_argument("repo")
    for k in ("last", "daily", "weekly", "monthly"):
        s.add_argument("--keep-" + k, type=int, default=0)
    s.add_argument("--dry-run", action="store_true"); s.set_defaults(fn=cmd_forget)
    s = sub.add_parser("audit"); s.add_argument("repo"); s.set_defaults(fn=cmd_audit)
    a = p.parse_args(argv)
    try:
        a.fn(a)
    except (store.RepoError, OSError, ValueError, KeyError) as e:
        sys.stderr.write("snap.py: %s\n" % e)
        return 1
    return 0
