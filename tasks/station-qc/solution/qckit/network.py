"""A month folder of the network: stations.csv, climatology.csv and the logger files."""
import csv
import os

from . import hdrcsv, timeutil, toa5

META_FILES = ("stations.csv", "climatology.csv")


def read_table(path):
    with open(path, newline="", encoding="utf-8") as f:
        return [{(k or "").strip(): (v or "").strip() for k, v in r.items()} for r in csv.DictReader(f)]


def load_offsets(folder):
    path = os.path.join(folder, "stations.csv")
    if not os.path.exists(path):
        return {}
    return {r["station"]: timeutil.parse_offset(r.get("utc_offset", "")) for r in read_table(path)}


def load_climatology(folder):
    """(station, month) -> (mean_c, sd_c)."""
    path = os.path.join(folder, "climatology.csv")
    if not os.path.exists(path):
        return {}
    out = {}
    for r in read_table(path):
        out[(r["station"], int(r["month"]))] = (float(r["mean_c"]), float(r["sd_c"]))
    return out


def logger_files(folder):
    names = []
    for n in os.listdir(folder):
        p = os.path.join(folder, n)
        if not os.path.isfile(p) or n in META_FILES:
            continue
        if n.endswith(".csv") or n.endswith(".dat"):
            names.append(n)
    return sorted(names)


def read_file(folder, name, offsets):
    with open(os.path.join(folder, name), encoding="utf-8-sig") as f:
        text = f.read()
    if name.endswith(".dat"):
        return toa5.read(text, offsets, name)
    return hdrcsv.read(text, name)


def load_observations(folder):
    """station -> [(utc_seconds, celsius or None)] in time order, one per instant (the first read)."""
    offsets = load_offsets(folder)
    seen = {}
    for name in logger_files(folder):
        for station, t, v in read_file(folder, name, offsets):
            per = seen.setdefault(station, {})
            if t not in per:
                per[t] = v
    return {s: sorted(per.items()) for s, per in seen.items()}


def load(folder):
    return load_observations(folder), load_climatology(folder)
