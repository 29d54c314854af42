"""Reader of Campbell-style TOA5 table files (*.dat).

Line 1 is the environment line ("TOA5", station, logger model, ...), line 2 the field names,
line 3 the units, line 4 the processing; data follow. The clock is the logger's local standard
time: the station's utc_offset from stations.csv."""
import csv
import io

from . import timeutil, tokens, units


class FormatError(ValueError):
    pass


def temperature_column(names):
    for i, n in enumerate(names):
        if n.strip().lower().startswith(("airt", "tair")):
            return i
    raise FormatError("no air temperature column in %r" % names)


def read(text, offsets, name="?"):
    """-> list of (station, utc_seconds, celsius or None) in file order."""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 4 or rows[0][0].strip().upper() != "TOA5":
        raise FormatError("%s: not a TOA5 file" % name)
    station = rows[0][1].strip()
    names, unit_row = rows[1], rows[2]
    it = [n.strip().upper() for n in names].index("TIMESTAMP")
    iv = temperature_column(names)
    unit = units.normalise_unit(unit_row[iv] if iv < len(unit_row) else "")
    offset = offsets.get(station, 0)
    out = []
    for row in rows[4:]:
        if not row or not "".join(row).strip():
            continue
        t = timeutil.parse_stamp(row[it], offset)
        raw = row[iv] if iv < len(row) else ""
        if tokens.is_missing(raw):
            out.append((station, t, None))
        else:
            out.append((station, t, units.to_celsius(tokens.parse_number(raw), unit)))
    return out
