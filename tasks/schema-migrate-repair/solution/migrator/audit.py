"""Findings of a database's history against a migrations folder (SPEC section 6)."""
from . import history
from .scripts import parse_version, version_key

CODES = ("FAILED", "DRIFT", "MISSING", "UNKNOWN", "OUT_OF_ORDER")


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


def findings(rows, versioned):
    """A sorted list of (version key, code)."""
    baseline, applied, failed = state(rows)
    out = set()
    for k in failed:
        out.add((k, "FAILED"))
    top_file = max(versioned) if versioned else None
    for k, r in applied.items():
        if k in failed:
            continue
        s = versioned.get(k)
        if s is not None:
            if s.checksum != r.checksum:
                out.add((k, "DRIFT"))
        elif top_file is None or k > top_file:
            out.add((k, "UNKNOWN"))
        else:
            out.add((k, "MISSING"))
    top_applied = max(applied) if applied else None
    if top_applied is not None:
        for k in versioned:
            if k in applied or k in failed:
                continue
            if baseline is not None and k <= baseline:
                continue
            if k < top_applied:
                out.add((k, "OUT_OF_ORDER"))
    return sorted(out, key=lambda f: (f[0], CODES.index(f[1])))


def audit(conn, versioned):
    return findings(history.rows(conn), versioned)
