import { utf8 } from "../../file-tree.js";

/**
 * The table tool the relation transforms place in an environment (python3 standard library
 * only). It reads and writes CSV/TSV/JSON-lines tables in exactly the layout shared/table.ts
 * writes (the dialect is passed as e.g. "csv:lf:final"), so a restored table is byte-identical.
 * Numbers in JSON lines are kept as their original text, never re-formatted.
 */
const SOURCE = String.raw`#!/usr/bin/env python3
"""Table restore tool: join, drop-flagged, backfill. Usage: see main()."""
import csv, io, json, os, sys, tempfile

csv.field_size_limit(sys.maxsize)


class Raw(str):
    """A JSON number kept as written."""


class Obj:
    def __init__(self, pairs):
        self.pairs = list(pairs)


class Dialect:
    def __init__(self, spec):
        p = spec.split(":")
        self.format = p[0]
        self.eol = "\n" if p[1] == "lf" else "\r\n"
        self.final = p[2] == "final"
        self.spaced = len(p) > 3 and p[3] == "spaced"
        self.ascii = len(p) > 4 and p[4] == "ascii"


def load_json(text):
    return json.loads(text, object_pairs_hook=Obj, parse_int=Raw, parse_float=Raw, parse_constant=Raw)


def dump(v, d):
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=d.ascii)
    item = ", " if d.spaced else ","
    if isinstance(v, list):
        return "[" + item.join(dump(x, d) for x in v) + "]"
    kv = ": " if d.spaced else ":"
    return "{" + item.join(json.dumps(k, ensure_ascii=d.ascii) + kv + dump(x, d) for k, x in v.pairs) + "}"


def read_table(path, d):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if d.format == "jsonl":
        lines = text.split(d.eol)
        if lines and lines[-1] == "":
            lines.pop()
        header, rows = None, []
        for n, line in enumerate(lines, 1):
            obj = load_json(line)
            keys = [k for k, _ in obj.pairs]
            if header is None:
                header = keys
            elif keys != header:
                sys.exit("%s:%d: keys differ from the first line" % (path, n))
            rows.append([v for _, v in obj.pairs])
        return header or [], rows
    delim = "," if d.format == "csv" else "\t"
    records = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim, strict=True))
    if not records:
        sys.exit("%s: empty table" % path)
    return records[0], records[1:]


def csv_field(f, delim, alone):
    if (alone and f == "") or delim in f or '"' in f or "\r" in f or "\n" in f:
        return '"' + f.replace('"', '""') + '"'
    return f


def write_table(path, d, header, rows):
    if d.format == "jsonl":
        kv = ": " if d.spaced else ":"
        item = ", " if d.spaced else ","
        keys = [json.dumps(h, ensure_ascii=d.ascii) + kv for h in header]
        lines = ["{" + item.join(k + dump(v, d) for k, v in zip(keys, row)) + "}" for row in rows]
    else:
        delim = "," if d.format == "csv" else "\t"
        lines = [delim.join(csv_field(c, delim, len(r) == 1) for c in r) for r in [header] + rows]
    text = d.eol.join(lines) + (d.eol if d.final else "")
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".restore-")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def column(header, name, path):
    if name not in header:
        sys.exit("%s: no column %r" % (path, name))
    return header.index(name)


def join(facts, lookup, id_col, name, spec, out):
    d = Dialect(spec)
    header, rows = read_table(facts, d)
    lh, lrows = read_table(lookup, d)
    ki, vi = column(lh, "id", lookup), column(lh, "value", lookup)
    values = {str(r[ki]): r[vi] for r in lrows}
    j = column(header, id_col, facts)
    header[j] = name
    for n, r in enumerate(rows, 1):
        key = str(r[j])
        if key not in values:
            sys.exit("%s: row %d: id %s is not in %s" % (facts, n, key, lookup))
        r[j] = values[key]
    write_table(out, d, header, rows)


def drop_flagged(path, flag, live, spec):
    d = Dialect(spec)
    header, rows = read_table(path, d)
    j = column(header, flag, path)
    keep = [r[:j] + r[j + 1:] for r in rows if str(r[j]) == live]
    write_table(path, d, header[:j] + header[j + 1:], keep)


def backfill(path, sidecar, key, spec):
    d = Dialect(spec)
    header, rows = read_table(path, d)
    sh, srows = read_table(sidecar, d)
    ri, ci, vi = column(sh, "row", sidecar), column(sh, "column", sidecar), column(sh, "value", sidecar)
    if key == "#":
        index = {str(n): r for n, r in enumerate(rows, 1)}
    else:
        kj = column(header, key, path)
        index = {r[kj]: r for r in rows}
    for n, s in enumerate(srows, 1):
        row_key = str(s[ri]) if key == "#" else s[ri]
        if row_key not in index:
            sys.exit("%s: entry %d names row %r, which %s does not have" % (sidecar, n, row_key, path))
        index[row_key][column(header, s[ci], path)] = s[vi]
    write_table(path, d, header, rows)


def main(argv):
    usage = (
        "usage: tables.py join FACTS LOOKUP ID_COLUMN COLUMN DIALECT OUT\n"
        "       tables.py drop-flagged TABLE FLAG_COLUMN LIVE_VALUE DIALECT\n"
        "       tables.py backfill TABLE SIDECAR KEY_COLUMN|# DIALECT"
    )
    if len(argv) < 2:
        sys.exit(usage)
    cmd, args = argv[1], argv[2:]
    if cmd == "join" and len(args) == 6:
        join(*args)
    elif cmd == "drop-flagged" and len(args) == 4:
        drop_flagged(*args)
    elif cmd == "backfill" and len(args) == 4:
        backfill(*args)
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv)
`;

export const TABLES_TOOL_PATH = ".tools/tables.py";
export const TABLES_TOOL_BYTES = utf8.encode(SOURCE);
