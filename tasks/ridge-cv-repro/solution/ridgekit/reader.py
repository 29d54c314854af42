"""Reading the data release: gzip or plain, `,` or `;` delimited, decimal commas, missing tokens."""
import csv
import gzip
import io

MISSING = {"", "na", "n/a", "nan", "null", "?", "."}


def is_missing(cell):
    return cell is None or cell.strip().lower() in MISSING


def parse_number(cell):
    """A numeric cell as float, or None when missing. `3,25` is 3.25 (decimal comma)."""
    if is_missing(cell):
        return None
    return float(cell.strip().replace(",", "."))


def read_bytes(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8-sig")


def read_table(path):
    """Rows of a data file as dicts of trimmed strings (header names trimmed too), in file order."""
    text = read_bytes(path)
    header = text.split("\n", 1)[0]
    delim = ";" if header.count(";") > header.count(",") else ","
    out = []
    names = None
    for rec in csv.reader(io.StringIO(text), delimiter=delim):
        if not rec or all(not c.strip() for c in rec):
            continue
        if names is None:
            names = [c.strip() for c in rec]
            continue
        rec = rec + [""] * (len(names) - len(rec))
        out.append({n: rec[i].strip() for i, n in enumerate(names)})
    return out
