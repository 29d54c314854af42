import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import {
  canonicalDigest,
  canonicalJson,
  factForm,
  groundFacts,
  parseDelimited,
} from "../../src/scale/facts.js";
import { utf8 } from "../../src/scale/file-tree.js";

const enc = utf8.encode;

function sqliteBytes(build: (db: BetterSqlite3.Database) => void): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "lh-facts-test-"));
  try {
    const file = join(dir, "t.sqlite");
    const db = new BetterSqlite3(file);
    build(db);
    db.close();
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pngBytes(w: number, h: number, level: number, filterType: number): Uint8Array {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h * 4; i++) png.data[i] = (i * 37 + 11) % 256;
  return new Uint8Array(PNG.sync.write(png, { deflateLevel: level, filterType }));
}

describe("factForm", () => {
  it("chooses the form by extension, case-insensitively", () => {
    expect(factForm("a/b.json")).toBe("json");
    expect(factForm("x.CSV")).toBe("rows");
    expect(factForm("x.tsv")).toBe("rows");
    expect(factForm("logs/x.jsonl")).toBe("rows");
    expect(factForm("d.db")).toBe("sqlite");
    expect(factForm("d.sqlite3")).toBe("sqlite");
    expect(factForm("i.png")).toBe("pixels");
    expect(factForm("README.md")).toBe("bytes");
    expect(factForm("noext")).toBe("bytes");
  });
});

describe("parseDelimited", () => {
  it("handles quoted commas, newlines, doubled quotes, CRLF and a final record without newline", () => {
    const text = 'a,b,c\r\n"x, y","line1\nline2","say ""hi"""\n1,,3';
    expect(parseDelimited(text)).toEqual([
      ["a", "b", "c"],
      ["x, y", "line1\nline2", 'say "hi"'],
      ["1", "", "3"],
    ]);
  });
  it("skips blank lines but keeps a quoted empty field", () => {
    expect(parseDelimited('h\n\n""\nv\n')).toEqual([["h"], [""], ["v"]]);
  });
  it("refuses an unterminated quote and text after a closing quote", () => {
    expect(() => parseDelimited('a\n"open')).toThrow(/unterminated/);
    expect(() => parseDelimited('a\n"x"y')).toThrow(/after a closing quote/);
  });
});

describe("canonicalDigest", () => {
  it("rows: CSV quoting, line endings and row order do not matter; the header and cells do", () => {
    const a = enc('id,name,note\n1,Ann,"a, b"\n2,"Bob","x""y"\n');
    const b = enc('"id","name","note"\r\n"2",Bob,"x""y"\r\n1,"Ann","a, b"');
    const c = enc('id,name,note\n1,Ann,"a, b"\n2,Bob,"x""z"\n');
    const d = enc('id,note,name\n1,"a, b",Ann\n2,"x""y",Bob\n');
    expect(canonicalDigest("t.csv", a)).toBe(canonicalDigest("t.csv", b));
    expect(canonicalDigest("t.csv", a)).not.toBe(canonicalDigest("t.csv", c));
    expect(canonicalDigest("t.csv", a)).not.toBe(canonicalDigest("t.csv", d));
  });
  it("rows: duplicate data rows count", () => {
    expect(canonicalDigest("t.csv", enc("h\n1\n1\n"))).not.toBe(canonicalDigest("t.csv", enc("h\n1\n")));
  });
  it("rows: TSV uses tabs", () => {
    expect(canonicalDigest("t.tsv", enc("a\tb\n1\t2\n"))).toBe(
      canonicalDigest("t.tsv", enc('a\tb\n"1"\t2\n')),
    );
    expect(canonicalDigest("t.tsv", enc("a\tb\n1\t2\n"))).not.toBe(
      canonicalDigest("t.tsv", enc("a\tb\n1\t3\n")),
    );
  });
  it("rows: JSONL line order and key order do not matter, values do", () => {
    const a = enc('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n');
    const b = enc('{"b":"y","a":2}\r\n\n{ "b" : "x", "a" : 1 }');
    const c = enc('{"a":1,"b":"x"}\n{"a":2,"b":"z"}\n');
    expect(canonicalDigest("l.jsonl", a)).toBe(canonicalDigest("l.jsonl", b));
    expect(canonicalDigest("l.jsonl", a)).not.toBe(canonicalDigest("l.jsonl", c));
  });
  it("json: key order and whitespace do not matter, array order does", () => {
    const a = enc('{"z":1,"a":{"y":[1,2],"b":null}}');
    const b = enc('{\n  "a": { "b": null, "y": [1, 2] },\n  "z": 1\n}\n');
    const c = enc('{"z":1,"a":{"y":[2,1],"b":null}}');
    expect(canonicalDigest("c.json", a)).toBe(canonicalDigest("c.json", b));
    expect(canonicalDigest("c.json", a)).not.toBe(canonicalDigest("c.json", c));
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: "x" })).toBe('{"a":"x","b":[1,{"c":2,"d":1}]}');
  });
  it("sqlite: same data inserted in a different order gives the same digest", () => {
    const rows: [number, string, number, Buffer | null][] = [
      [1, "alpha", 1.5, Buffer.from([1, 2])],
      [2, "beta", 2, null],
      [3, "gamma", -0.25, Buffer.from([])],
    ];
    const build = (order: number[], extraIndex: boolean) =>
      sqliteBytes((db) => {
        db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, tag BLOB)");
        db.exec("CREATE TABLE empty (x)");
        if (extraIndex) db.exec("CREATE INDEX items_name ON items(name)");
        const ins = db.prepare("INSERT INTO items VALUES (?, ?, ?, ?)");
        for (const i of order) ins.run(...(rows[i] as [number, string, number, Buffer | null]));
      });
    const a = build([0, 1, 2], false);
    const b = build([2, 0, 1], true);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(canonicalDigest("x.sqlite", a)).toBe(canonicalDigest("y.db", b));
    const c = sqliteBytes((db) => {
      db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price REAL, tag BLOB)");
      db.exec("CREATE TABLE empty (x)");
      const ins = db.prepare("INSERT INTO items VALUES (?, ?, ?, ?)");
      ins.run(1, "alpha", 1.5, Buffer.from([1, 2]));
      ins.run(2, "beta", 2, null);
      ins.run(3, "gamma", -0.25, Buffer.from([9]));
    });
    expect(canonicalDigest("x.sqlite", a)).not.toBe(canonicalDigest("x.sqlite", c));
  });
  it("sqlite: the storage class of a value matters", () => {
    const make = (v: number | string) =>
      sqliteBytes((db) => {
        db.exec("CREATE TABLE t (v)");
        db.prepare("INSERT INTO t VALUES (?)").run(v);
      });
    expect(canonicalDigest("a.db", make(1))).not.toBe(canonicalDigest("a.db", make("1")));
  });
  it("sqlite: a WAL-mode database is read without its side files", () => {
    const wal = sqliteBytes((db) => {
      db.pragma("journal_mode = WAL");
      db.exec("CREATE TABLE t (v)");
      db.prepare("INSERT INTO t VALUES (?)").run("w");
      db.pragma("wal_checkpoint(TRUNCATE)");
    });
    const plain = sqliteBytes((db) => {
      db.exec("CREATE TABLE t (v)");
      db.prepare("INSERT INTO t VALUES (?)").run("w");
    });
    expect(wal[18]).toBe(2);
    expect(canonicalDigest("w.db", wal)).toBe(canonicalDigest("p.db", plain));
  });
  it("pixels: recompressing or refiltering a PNG keeps the digest; changing a pixel does not", () => {
    const a = pngBytes(7, 5, 9, 4);
    const b = pngBytes(7, 5, 1, 0);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(canonicalDigest("i.png", a)).toBe(canonicalDigest("j.png", b));
    const png = PNG.sync.read(Buffer.from(a));
    png.data[5] = ((png.data[5] ?? 0) + 1) % 256;
    expect(canonicalDigest("i.png", new Uint8Array(PNG.sync.write(png)))).not.toBe(
      canonicalDigest("i.png", a),
    );
    // Same samples, different shape.
    const t = PNG.sync.read(Buffer.from(a));
    const reshaped = new PNG({ width: 5, height: 7 });
    t.data.copy(reshaped.data);
    expect(canonicalDigest("i.png", new Uint8Array(PNG.sync.write(reshaped)))).not.toBe(
      canonicalDigest("i.png", a),
    );
  });
  it("bytes: plain sha256 of the content", () => {
    expect(canonicalDigest("a.txt", enc("abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });
  it("throws UserError naming the file when the content is not valid in the form", () => {
    expect(() => canonicalDigest("bad.json", enc("{"))).toThrow(UserError);
    expect(() => canonicalDigest("bad.json", enc("{"))).toThrow(/bad\.json/);
    expect(() => canonicalDigest("bad.db", enc("not a database at all"))).toThrow(UserError);
    expect(() => canonicalDigest("bad.png", enc("nope"))).toThrow(UserError);
    expect(() => canonicalDigest("bad.csv", new Uint8Array([0xff, 0xfe]))).toThrow(UserError);
  });
});

describe("groundFacts", () => {
  it("gives facts sorted by path, falling back to bytes for unparseable content", () => {
    const tree = new Map<string, Uint8Array>([
      ["z.json", enc('{"b":1,"a":2}')],
      ["a/broken.json", enc("{nope")],
      ["m.txt", enc("hello")],
    ]);
    const facts = groundFacts(tree);
    expect(facts.map((f) => [f.path, f.form])).toEqual([
      ["a/broken.json", "bytes"],
      ["m.txt", "bytes"],
      ["z.json", "json"],
    ]);
    expect(facts[2]?.digest).toBe(canonicalDigest("z.json", enc('{"a":2,"b":1}')));
    expect(groundFacts(tree, ["m.txt"]).map((f) => f.path)).toEqual(["m.txt"]);
  });
  it("refuses a path that is not in the tree", () => {
    expect(() => groundFacts(new Map(), ["missing.csv"])).toThrow(/missing\.csv/);
  });
});
