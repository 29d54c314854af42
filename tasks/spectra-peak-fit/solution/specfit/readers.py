"""Instrument export readers. Every reader returns a Spectrum with an ascending axis."""
import re


class Spectrum:
    def __init__(self, title, x, y, meta):
        self.title = title
        self.x = x
        self.y = y
        self.meta = meta

    @property
    def dilution(self):
        return float(self.meta.get("dilution", 1.0))


def _num(text):
    """A number in either decimal style: 1234,5 or 1234.5."""
    return float(text.strip().replace(",", "."))


def _ascending(x, y):
    """Pairs sorted by the axis value: a descending export keeps each y with its x."""
    pairs = sorted(zip(x, y))
    return [p[0] for p in pairs], [p[1] for p in pairs]


def read_csv_export(path):
    meta = {}
    x, y = [], []
    title = ""
    with open(path, encoding="utf-8-sig") as f:
        lines = f.read().splitlines()
    in_data = False
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].partition(";")
            key = key.strip().lower()
            value = value.strip()
            if key == "title":
                title = value
            elif key == "dilution":
                meta["dilution"] = _num(value)
            else:
                meta[key] = value
            continue
        if not in_data:
            in_data = True
            if re.match(r"^[A-Za-z]", line):
                continue  # the column header line
        a, b = line.split(";")[:2]
        x.append(_num(a))
        y.append(_num(b))
    x, y = _ascending(x, y)
    return Spectrum(title, x, y, meta)


_TOKEN = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def _values(row):
    """The numbers of one XYDATA row: separated by blanks or packed with +/- signs (PAC)."""
    return [float(t) for t in _TOKEN.findall(row)]


def read_jcamp(path):
    labels = {}
    rows = []
    with open(path, encoding="utf-8-sig") as f:
        lines = f.read().splitlines()
    in_xy = False
    for line in lines:
        s = line.strip()
        if s.startswith("##"):
            key, _, value = s[2:].partition("=")
            key = key.strip().upper()
            value = value.strip()
            in_xy = key == "XYDATA"
            if key == "END":
                break
            labels[key] = value
            continue
        if in_xy and s:
            s = s.split("$$")[0]
            if s.strip():
                rows.append(_values(s))
    xfactor = float(labels.get("XFACTOR", "1"))
    yfactor = float(labels.get("YFACTOR", "1"))
    first = float(labels["FIRSTX"])
    last = float(labels["LASTX"])
    n = int(labels["NPOINTS"])
    ys = []
    for r in rows:
        ys.extend(v * yfactor for v in r[1:])
    if len(ys) != n:
        raise ValueError("%s: %d values for NPOINTS=%d" % (path, len(ys), n))
    step = (last - first) / (n - 1)
    xs = [first + i * step for i in range(n)]
    del xfactor  # the row abscissae are check values only
    meta = {}
    if "$DILUTION" in labels:
        meta["dilution"] = _num(labels["$DILUTION"])
    x, y = _ascending(xs, ys)
    return Spectrum(labels.get("TITLE", ""), x, y, meta)


def read_spectrum(path):
    lower = path.lower()
    if lower.endswith((".jdx", ".dx", ".jcamp")):
        return read_jcamp(path)
    if lower.endswith(".csv"):
        return read_csv_export(path)
    raise ValueError("unknown spectrum format: %s" % path)
