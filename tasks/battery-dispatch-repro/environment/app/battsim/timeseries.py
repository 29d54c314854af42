"""Site folders: site.json and the 15-minute interval files (load, vendor logs)."""
import csv
import json
import os
from datetime import datetime, timezone

STEP_MIN = 15
DT_H = STEP_MIN / 60.0


class Interval:
    """One 15-minute interval: its start instant (aware, carrying the row's UTC offset)."""

    __slots__ = ("start", "key", "month", "load_kw", "price")

    def __init__(self, start, load_kw, price):
        self.start = start
        self.key = start.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
        self.month = start.strftime("%Y-%m")  # local calendar month of the interval's start
        self.load_kw = load_kw
        self.price = price


def load_site(site_dir):
    with open(os.path.join(site_dir, "site.json"), encoding="utf-8") as f:
        return json.load(f)


def read_table(path):
    """(metadata dict, list of row dicts) of a file with `# key: value` lines before its header."""
    meta, lines = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                k, _, v = line[1:].partition(":")
                meta[k.strip().lower()] = v.strip()
            elif line.strip():
                lines.append(line)
    rows = [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(lines)]
    return meta, rows


def parse_stamp(text):
    """`YYYY-MM-DD HH:MM+HH:MM` (local clock with its UTC offset) as an aware datetime."""
    return datetime.strptime(text.strip(), "%Y-%m-%d %H:%M%z")


def read_load(site_dir):
    meta, rows = read_table(os.path.join(site_dir, "load.csv"))
    if meta.get("interval_minutes", str(STEP_MIN)) != str(STEP_MIN):
        raise ValueError("only 15-minute files are supported")
    out = {}
    for r in rows:
        stamp = r["timestamp"]
        kw = float(r.get("load_kw") or r.get("load_kwh"))
        # keyed by the clock reading so a repeated row replaces the earlier one
        out[stamp[:16]] = Interval(parse_stamp(stamp), kw, float(r["price"]))
    return [out[k] for k in sorted(out)]
