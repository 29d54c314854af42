"""Weather files: `# key: value` header lines, then a CSV table of interval rows."""
import csv
from datetime import datetime, timedelta

MISSING = {"", "na", "nan", "null", "-9999", "-9999.0"}


def parse_value(text):
    t = (text or "").strip()
    if t.lower() in MISSING:
        return 0.0
    return float(t)


def parse_stamp(text):
    return datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")


def read_table(path):
    """Returns (meta, header, rows) where meta holds the `# key: value` lines."""
    meta, lines = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith("#"):
                if ":" in s:
                    k, v = s[1:].split(":", 1)
                    meta[k.strip().lower()] = v.strip()
                continue
            lines.append(line)
    table = list(csv.reader(lines))
    header = [h.strip().lower() for h in table[0]]
    return meta, header, table[1:]


class Weather:
    """Interval rows keyed by local interval start."""

    def __init__(self, step_min, rows, has_components):
        self.step = timedelta(minutes=step_min)
        self.step_min = step_min
        self.rows = rows  # start -> dict of values (None when missing)
        self.has_components = has_components

    def grid(self):
        if not self.rows:
            return []
        t, last = min(self.rows), max(self.rows)
        out = []
        while t <= last:
            out.append(t)
            t += self.step
        return out


def load_weather(path):
    meta, header, table = read_table(path)
    step = int(meta.get("interval_minutes", "60"))
    shift = timedelta(0)
    rows = {}
    for rec in table:
        if not rec or not rec[0].strip():
            continue
        values = dict(zip(header, rec))
        start = parse_stamp(values["timestamp"]) - shift
        if start in rows:
            continue
        rows[start] = {k: parse_value(values.get(k)) for k in ("ghi", "dni", "dhi", "temp_air", "wind_speed")}
    return Weather(step, rows, "dni" in header and "dhi" in header)
