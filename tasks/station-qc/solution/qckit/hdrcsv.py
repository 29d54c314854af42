"""Reader of the comment-header logger files (*.csv).

    # station: ST104
    # units: degF
    # tz: -03:30
    Obs_Time;Air_Temp
    2026-07-01 00:30;70,3
"""
import csv
import io

from . import timeutil, tokens, units

TIME_COLUMNS = ("time", "timestamp", "datetime", "obs_time", "date_time")
TEMP_COLUMNS = ("temp", "temperature", "t2m", "air_temp", "tair")


class FormatError(ValueError):
    pass


def split_header(text):
    """-> (meta dict, the remaining lines)."""
    meta = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (lines[i].startswith("#") or not lines[i].strip()):
        body = lines[i].lstrip("#").strip()
        if ":" in body:
            key, value = body.split(":", 1)
            meta[key.strip().lower()] = value.strip()
        i += 1
    return meta, lines[i:]


def pick_delimiter(header_line):
    return ";" if header_line.count(";") > header_line.count(",") else ","


def find_column(names, wanted):
    low = [n.strip().strip('"').strip().lower() for n in names]
    for i, n in enumerate(low):
        if n in wanted:
            return i
    raise FormatError("none of the columns %s in %r" % (", ".join(wanted), names))


def read(text, name="?"):
    """-> list of (station, utc_seconds, celsius or None) in file order."""
    meta, body = split_header(text)
    station = meta.get("station", "").strip()
    if not station:
        raise FormatError("%s: no '# station:' line" % name)
    unit = units.normalise_unit(meta.get("units"))
    offset = timeutil.parse_offset(meta.get("tz", "UTC"))
    if not body:
        return []
    delim = pick_delimiter(body[0])
    rows = list(csv.reader(io.StringIO("\n".join(body)), delimiter=delim))
    it = find_column(rows[0], TIME_COLUMNS)
    iv = find_column(rows[0], TEMP_COLUMNS)
    out = []
    for row in rows[1:]:
        if not row or not "".join(row).strip():
            continue
        stamp = row[it] if it < len(row) else ""
        raw = row[iv] if iv < len(row) else ""
        t = timeutil.parse_stamp(stamp, offset)
        if tokens.is_missing(raw):
            out.append((station, t, None))
        else:
            out.append((station, t, units.to_celsius(tokens.parse_number(raw, delim == ";"), unit)))
    return out
