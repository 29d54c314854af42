"""Sanity checks of a period folder before billing (`bill.py check PERIOD_DIR`).

Billing refuses a folder with an error; warnings are printed and billing goes on."""
import csv
import json
import os
from datetime import date

from .reads import parse_ts

FLAGS = {"A", "E", "F", "X"}
KINDS = {"tou", "block"}
DAY_TYPES = {"mon", "tue", "wed", "thu", "fri", "sat", "sun", "hol"}


class Problem(Exception):
    pass


def _period(folder, errors):
    try:
        with open(os.path.join(folder, "period.json"), encoding="utf-8") as f:
            raw = json.load(f)
        start, end = date.fromisoformat(raw["start"]), date.fromisoformat(raw["end"])
        if end < start:
            errors.append("period.json: end before start")
        for h in raw.get("holidays", []):
            date.fromisoformat(h)
    except (OSError, ValueError, KeyError) as e:
        errors.append("period.json: %s" % e)


def _tariffs(folder, errors):
    try:
        with open(os.path.join(folder, "tariffs.json"), encoding="utf-8") as f:
            raw = json.load(f)
    except (OSError, ValueError) as e:
        errors.append("tariffs.json: %s" % e)
        return {}
    for tid, versions in raw.items():
        if not versions:
            errors.append("tariff %s has no version" % tid)
        for v in versions:
            if v.get("kind") not in KINDS:
                errors.append("tariff %s %s: unknown kind %r" % (tid, v.get("from"), v.get("kind")))
            for b in v.get("bands", []):
                bad = set(b.get("days", [])) - DAY_TYPES
                if bad:
                    errors.append("tariff %s band %s: unknown days %s" % (tid, b.get("name"), sorted(bad)))
            blocks = v.get("blocks", [])
            if blocks and blocks[-1].get("upto") is not None:
                errors.append("tariff %s %s: the last block must be unbounded" % (tid, v.get("from")))
    return raw


def _reads(path, errors, warnings):
    last = None
    n = 0
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("timestamp"):
                continue
            parts = line.split(",")
            if len(parts) != 3 or parts[2].strip().upper() not in FLAGS:
                errors.append("%s:%d: bad read %r" % (os.path.basename(path), lineno, line))
                continue
            ts = parse_ts(parts[0])
            if last is not None and ts < last:
                errors.append("%s:%d: reads out of order" % (os.path.basename(path), lineno))
            if ts.minute % 30:
                warnings.append("%s:%d: read off the half hour" % (os.path.basename(path), lineno))
            last = ts
            n += 1
    if n < 2:
        errors.append("%s: fewer than two reads" % os.path.basename(path))


def check(folder):
    """(errors, warnings) of a period folder."""
    errors, warnings = [], []
    _period(folder, errors)
    tariffs = _tariffs(folder, errors)
    try:
        with open(os.path.join(folder, "accounts.csv"), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        return errors + ["accounts.csv: %s" % e], warnings
    seen = set()
    for row in rows:
        acct = (row.get("account") or "").strip()
        if acct in seen:
            errors.append("account %s listed twice" % acct)
        seen.add(acct)
        if (row.get("tariff") or "").strip() not in tariffs:
            errors.append("account %s: unknown tariff %r" % (acct, row.get("tariff")))
        for col in ("meter", "export_meter"):
            meter = (row.get(col) or "").strip()
            if not meter:
                continue
            path = os.path.join(folder, "reads", meter + ".csv")
            if not os.path.exists(path):
                errors.append("account %s: no reads for %s" % (acct, meter))
            else:
                _reads(path, errors, warnings)
        if (row.get("export_meter") or "").strip() and not (row.get("export_rate") or "").strip():
            errors.append("account %s: export meter without an export rate" % acct)
    return errors, warnings


def require_valid(folder):
    errors, _ = check(folder)
    if errors:
        raise Problem("; ".join(errors[:5]))
