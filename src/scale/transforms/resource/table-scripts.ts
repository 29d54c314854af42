/**
 * Python 3 (standard library only) restore scripts for table transforms, passed to `python3 -c`.
 * They read and write UTF-8, write CSV with \r\n line ends so every field holding \r or \n is
 * quoted, and build JSONL lines key by key so column order survives.
 */

const PRELUDE = ["import csv, json, sqlite3, sys", "csv.field_size_limit(2**31 - 1)"];

/** Builds one JSONL line from header and cells; mode "json": cells are JSON texts, "text": plain strings. */
const OBJECT_LINE = [
  "def object_line(header, cells, mode):",
  '    texts = cells if mode == "json" else [json.dumps(c) for c in cells]',
  '    return "{" + ",".join(json.dumps(k) + ":" + t for k, t in zip(header, texts)) + "}\\n"',
];

const READ_CSV = [
  "def read_csv(path):",
  '    with open(path, encoding="utf-8", newline="") as f:',
  "        return [r for r in csv.reader(f) if r]",
];

/** A leading U+FEFF in the first field would read as a byte-order mark unless that field is quoted. */
const WRITE_CSV = [
  "def write_csv(path, rows):",
  '    bom = bool(rows and rows[0] and str(rows[0][0]).startswith("\\ufeff"))',
  "    quoting = csv.QUOTE_ALL if bom else csv.QUOTE_MINIMAL",
  '    with open(path, "w", encoding="utf-8", newline="") as out:',
  '        csv.writer(out, lineterminator="\\r\\n", quoting=quoting).writerows(rows)',
];

function script(...parts: string[][]): string {
  return [...PRELUDE, ...parts.flat()].join("\n");
}

/** argv: jsonl-in csv-out. Header from the first record's key order, then one row per record. */
export const JSONL_TO_CSV = script(WRITE_CSV, [
  "src, dst = sys.argv[1], sys.argv[2]",
  'with open(src, encoding="utf-8") as f:',
  "    records = [json.loads(line) for line in f if line.strip()]",
  "header = list(records[0].keys())",
  "write_csv(dst, [header] + [[r[k] for k in header] for r in records])",
]);

/** argv: csv-in jsonl-out mode. One object per data row, keys from the header. */
export const CSV_TO_JSONL = script(OBJECT_LINE, READ_CSV, [
  "src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]",
  "rows = read_csv(src)",
  'with open(dst, "w", encoding="utf-8", newline="") as out:',
  "    for row in rows[1:]:",
  "        out.write(object_line(rows[0], row, mode))",
]);

/** argv: db table out kind mode. Writes the table (rowid order) as CSV (kind csv) or JSONL (kind jsonl). */
export const SQLITE_TO_TABLE = script(OBJECT_LINE, WRITE_CSV, [
  "src, table, dst, kind, mode = sys.argv[1:6]",
  "db = sqlite3.connect(src)",
  'cur = db.execute("SELECT * FROM \\"%s\\" ORDER BY rowid" % table.replace("\\"", "\\"\\""))',
  "header = [d[0] for d in cur.description]",
  "rows = cur.fetchall()",
  "db.close()",
  'if kind == "csv":',
  "    write_csv(dst, [header] + [list(r) for r in rows])",
  "else:",
  '    with open(dst, "w", encoding="utf-8", newline="") as out:',
  "        for r in rows:",
  "            out.write(object_line(header, list(r), mode))",
]);

/**
 * argv: file dictionary kind. Renames fields back using the dictionary's "fields" map
 * (opaque -> original): the CSV header, every JSONL object's keys, or a JSON object's (or each
 * element object's) keys.
 */
export const RENAME_FIELDS = script(READ_CSV, WRITE_CSV, [
  "path, dictionary, kind = sys.argv[1:4]",
  'with open(dictionary, encoding="utf-8") as f:',
  '    names = json.load(f)["fields"]',
  "def back(obj):",
  "    return {names.get(k, k): v for k, v in obj.items()} if isinstance(obj, dict) else obj",
  'if kind == "csv":',
  "    rows = read_csv(path)",
  "    rows[0] = [names.get(c, c) for c in rows[0]]",
  "    write_csv(path, rows)",
  "else:",
  '    with open(path, encoding="utf-8") as f:',
  '        if kind == "jsonl":',
  "            values = [back(json.loads(line)) for line in f if line.strip()]",
  "        else:",
  "            doc = json.load(f)",
  '    with open(path, "w", encoding="utf-8", newline="") as out:',
  '        if kind == "jsonl":',
  "            for v in values:",
  '                out.write(json.dumps(v) + "\\n")',
  "        else:",
  "            doc = [back(e) for e in doc] if isinstance(doc, list) else back(doc)",
  "            json.dump(doc, out, indent=2)",
]);

/** argv: out part1 part2 ... Joins CSV parts that share a header: the header once, then every data row. */
export const JOIN_CSV_PARTS = script(READ_CSV, WRITE_CSV, [
  "dst, parts = sys.argv[1], sys.argv[2:]",
  "tables = [read_csv(p) for p in parts]",
  "write_csv(dst, [tables[0][0]] + [row for t in tables for row in t[1:]])",
]);
