"""migrate, down, baseline: one transaction per script (SPEC sections 4 and 5)."""
import sqlite3

from . import MigrationError, history
from .scripts import parse_version, version_key, version_text


class ScriptFailed(Exception):
    """A script failed and was rolled back (exit status 1)."""


def connect(path):
    conn = sqlite3.connect(path)
    return conn


def run_in_transaction(conn, script, record, failed=None):
    """Runs the script, then record(conn), and commits."""
    try:
        conn.executescript(script.text)
        record(conn)
        conn.commit()
    except sqlite3.Error as e:
        if failed is not None:
            failed(conn)
            conn.commit()
        raise ScriptFailed("%s: %s" % (script.name, e))


def key_of(text):
    return version_key(parse_version(text))


def state(rows):
    """(baseline key or None, {key: successful SQL row}, {key: failed rows})."""
    baseline, applied, failed = None, {}, {}
    for r in rows:
        if r.type == "BASELINE" and r.success:
            baseline = key_of(r.version)
        elif r.type == "SQL" and r.version is not None:
            k = key_of(r.version)
            if r.success:
                applied[k] = r
            else:
                failed.setdefault(k, []).append(r)
    return baseline, applied, failed


def check(rows, versioned, allow_out_of_order):
    """Refuses when an applied script was edited since (TODO: the other checks of SPEC section 6)."""
    _, applied, _ = state(rows)
    bad = []
    for k, r in applied.items():
        s = versioned.get(k)
        if s is not None and s.checksum != r.checksum:
            bad.append("%s DRIFT" % version_text(k))
    if bad:
        raise MigrationError("validation failed: " + ", ".join(bad))


def migrate(conn, versioned, repeatable, target=None, out_of_order=False, say=print):
    rows = history.rows(conn)
    check(rows, versioned, out_of_order)
    baseline, applied, _ = state(rows)
    pending = [versioned[k] for k in versioned
               if k not in applied and (baseline is None or k >= baseline) and (target is None or k < target)]
    history.ensure(conn)
    latest = {}
    for r in history.rows(conn):
        if r.type == "REPEATABLE" and r.success:
            latest.setdefault(r.description, r.checksum)
    for desc in sorted(repeatable):
        s = repeatable[desc]
        if latest.get(desc) == s.checksum:
            continue
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, None, s.description, "REPEATABLE", s.name, s.checksum),
                           lambda c, s=s: history.insert(c, None, s.description, "REPEATABLE", s.name, s.checksum, 0))
        say("applied repeatable %s" % s.name)
    for s in sorted(pending, key=lambda s: s.name):
        run_in_transaction(conn, s, lambda c, s=s: history.insert(c, s.version_text, s.description, "SQL", s.name, s.checksum),
                           lambda c, s=s: history.insert(c, s.version_text, s.description, "SQL", s.name, s.checksum, 0))
        say("applied %s %s" % (s.version_text, s.name))


def down(conn, versioned, undo, target, say=print):
    rows = history.rows(conn)
    check(rows, versioned, True)
    baseline, applied, _ = state(rows)
    if baseline is not None and target < baseline:
        raise MigrationError("target %s is below the baseline %s" % (version_text(target), version_text(baseline)))
    todo = sorted((k for k in applied if k >= target), reverse=True)
    for k in todo:
        s = undo.get(k)
        if s is None:
            say("warning: no undo script for %s" % version_text(k))
            continue
        v = applied[k].version
        run_in_transaction(conn, s, lambda c, v=v: history.delete_version(c, v))
        say("undone %s %s" % (version_text(k), s.name))


def baseline(conn, version):
    if history.rows(conn):
        raise MigrationError("history is not empty")
    history.ensure(conn)
    history.insert(conn, version_text(version), "<< Baseline >>", "BASELINE", "<< Baseline >>", None)
