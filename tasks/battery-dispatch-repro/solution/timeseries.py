"""Site folders: site.json and the 15-minute interval files (load, vendor logs)."""
import csv
import json
import os
from datetime import datetime, timedelta, timezone

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


def interval_start(text, label):
    t = parse_stamp(text)
    if label == "end":
        t = t - timedelta(minutes=STEP_MIN)
    return t


def read_load(site_dir):
    meta, rows = read_table(os.path.join(site_dir, "load.csv"))
    label = meta.get("timestamp_label", "start").lower()
    out = {}
    for r in rows:
        start = interval_start(r["timestamp"], label)
        if "load_kwh" in r:
            kw = float(r["load_kwh"]) / DT_H
        else:
            kw = float(r["load_kw"])
        iv = Interval(start, kw, float(r["price"]))
        out[iv.key] = iv
    return [out[k] for k in sorted(out)]


def read_log(path):
    """Vendor dispatch log: {interval key: row dict}."""
    meta, rows = read_table(path)
    label = meta.get("timestamp_label", "start").lower()
    out = {}
    for r in rows:
        start = interval_start(r["timestamp"], label)
        key = start.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
        out[key] = {k: float(v) for k, v in r.items() if k != "timestamp"}
    return out
