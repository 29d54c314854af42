"""migrate, down, baseline: one transaction per script (SPEC sections 4 and 5)."""
import sqlite3

from . import MigrationError, history
from .audit import findings, state
from .scripts import normalise, version_text


class ScriptFailed(Exception):
    """A script failed and was rolled back (exit status 1)."""


def connect(path):
    conn = sqlite3.connect(path, isolation_level=None)
    return conn


def run_in_transaction(conn, script, record):
    """Runs the script and record(conn) in one transaction; rolls both back on any error."""
    try:
        conn.executescript("BEGIN;\n" + normalise(script.text) + "\n;")
        record(conn)
        conn.execute("COMMIT")
    except sqlite3.Error as e:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise ScriptFailed("%s: %s" % (script.name, e))


def check(rows, versioned, allow_out_of_order):
    bad = [(k, c) for k, c in findings(rows, versioned) if not (c == "OUT_OF_ORDER" and allow_out_of_order)]
    if bad:
        raise MigrationError("validation failed: " + ", ".join("%s %s" % (version_text(k), c) for k, c in bad))


def migrate(conn, versioned, repeatable, target=None, out_of_order=False, say=print):
    rows = history.rows(conn)
    check(rows, versioned, out_of_order)
    baseline, applied, _ = state(rows)
    pending = [k for k in sorted(versioned)
               if k not in applied and (baseline is None or k > baseline) and (target is None or k <= target)]
    history.ensure(conn)
    for k in pending:
        s = versioned[k]
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, s.version_text, s.description, "SQL", s.name, s.checksum))
        say("applied %s %s" % (s.version_text, s.name))
    latest = {}
    for r in history.rows(conn):
        if r.type == "REPEATABLE" and r.success:
            latest[r.description] = r.checksum
    for desc in sorted(repeatable):
        s = repeatable[desc]
        if latest.get(desc) == s.checksum:
            continue
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, None, s.description, "REPEATABLE", s.name, s.checksum))
        say("applied repeatable %s" % s.name)


def down(conn, versioned, undo, target, say=print):
    rows = history.rows(conn)
    check(rows, versioned, True)
    baseline, applied, _ = state(rows)
    if baseline is not None and target < baseline:
        raise MigrationError("target %s is below the baseline %s" % (version_text(target), version_text(baseline)))
    todo = sorted((k for k in applied if k > target), reverse=True)
    missing = [k for k in todo if k not in undo]
    if missing:
        raise MigrationError("no undo script for " + ", ".join(version_text(k) for k in missing))
    for k in todo:
        s = undo[k]
        v = applied[k].version
        run_in_transaction(conn, s, lambda c, v=v: history.delete_version(c, v))
        say("undone %s %s" % (version_text(k), s.name))


def baseline(conn, version):
    if history.rows(conn):
        raise MigrationError("history is not empty")
    history.ensure(conn)
    history.insert(conn, version_text(version), "<< Baseline >>", "BASELINE", "<< Baseline >>", None)
