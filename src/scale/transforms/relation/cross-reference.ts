import { z } from "zod";
import { UserError } from "../../../core/errors.js";
import { Rng } from "../../../core/rng.js";
import { utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import { extension } from "../shared/names.js";
import { mkdirFor, pathArg, sq } from "../shared/shell.js";
import { withSqlite } from "../shared/sqlite.js";
import { checkTargets, codeList, stashPath } from "../shared/store.js";
import { serializeTable } from "../shared/table.js";
import { TreeBuilder } from "../shared/tree-builder.js";

export const CARRIERS = ["sqlite", "ini", "json", "csv"] as const;
export type Carrier = (typeof CARRIERS)[number];

const Params = z.object({ carrier: z.enum(CARRIERS).optional() }).strict();
export type CrossReferenceParams = z.infer<typeof Params>;

interface CarrierKind {
  file: string;
  /** The kinds of target this carrier counts as the same type as. */
  sameAs: readonly string[];
  build(entries: readonly (readonly [string, string])[]): Uint8Array;
  /** Python printing the location of argv[2] from carrier file argv[1]. */
  lookupPy: string;
  describe(file: string): string;
}

const KINDS: Record<Carrier, CarrierKind> = {
  sqlite: {
    file: "catalog.sqlite",
    sameAs: ["sqlite", "sqlite3", "db"],
    build: (entries) =>
      withSqlite(undefined, (db) => {
        db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
        db.exec("INSERT INTO settings VALUES ('storage.backend', 'local'), ('storage.layout', 'sharded')");
        db.exec("CREATE TABLE file_locations (name TEXT PRIMARY KEY, location TEXT NOT NULL)");
        const ins = db.prepare("INSERT INTO file_locations (name, location) VALUES (?, ?)");
        for (const [n, l] of entries) ins.run(n, l);
      }).bytes,
    lookupPy:
      "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(" +
      '"SELECT location FROM file_locations WHERE name = ?", (sys.argv[2],)).fetchone()[0])',
    describe: (f) =>
      `the SQLite database \`${f}\` (table \`file_locations\`, columns \`name\` and \`location\`)`,
  },
  ini: {
    file: "storage.ini",
    sameAs: ["ini", "cfg", "conf"],
    build: (entries) =>
      utf8.encode(
        "; object storage for this workspace\n[storage]\nbackend = local\nlayout = sharded\n" +
          entries.map(([n, l], i) => `\n[object.${i + 1}]\nname = ${n}\nlocation = ${l}\n`).join(""),
      ),
    lookupPy:
      "import configparser, sys; c = configparser.ConfigParser(interpolation=None); " +
      'c.read(sys.argv[1], encoding="utf-8"); ' +
      'print(next(c[s]["location"] for s in c.sections() if c[s].get("name") == sys.argv[2]))',
    describe: (f) =>
      `the INI file \`${f}\` (one \`[object.N]\` section per file, keys \`name\` and \`location\`)`,
  },
  json: {
    file: "storage.json",
    sameAs: ["json"],
    build: (entries) =>
      utf8.encode(
        `${JSON.stringify(
          {
            storage: {
              backend: "local",
              objects: Object.fromEntries(entries.map(([n, l]) => [n, { location: l }])),
            },
          },
          null,
          2,
        )}\n`,
      ),
    lookupPy:
      'import json, sys; print(json.load(open(sys.argv[1], encoding="utf-8"))["storage"]["objects"][sys.argv[2]]["location"])',
    describe: (f) => `the JSON file \`${f}\` (\`storage.objects[<path>].location\`)`,
  },
  csv: {
    file: "locations.csv",
    sameAs: ["csv", "tsv"],
    build: (entries) =>
      serializeTable({
        dialect: { format: "csv", eol: "\n", finalEol: true },
        header: ["name", "location", "backend"],
        rows: entries.map(([n, l]) => [n, l, "local"]),
      }),
    lookupPy:
      'import csv, sys; print(next(r["location"] for r in csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")) ' +
      'if r["name"] == sys.argv[2]))',
    describe: (f) => `the CSV file \`${f}\` (columns \`name\` and \`location\`)`,
  },
};

/** An INI value keeps no surrounding blanks and no line breaks, so only such names go in one. */
function iniSafe(name: string): boolean {
  return name === name.trim() && !/[\r\n]/.test(name);
}

function carriersFor(targets: readonly string[]): Carrier[] {
  return CARRIERS.filter(
    (c) =>
      targets.every((t) => !KINDS[c].sameAs.includes(extension(t))) &&
      (c !== "ini" || targets.every(iniSafe)),
  );
}

/**
 * Moves each target to an opaque path and records where it went inside another resource of a
 * different type: a row of an SQLite table, a section of an INI file, a key of a JSON config or
 * a line of a CSV file.
 */
export const crossReferenceTransform: Transform<CrossReferenceParams> = {
  name: "cross-reference",
  kind: "relation",
  basic: false,
  summary: "move files to opaque paths recorded in a resource of another type (SQLite, INI, JSON or CSV)",
  restoreDoc:
    "Look the file's path up in the named carrier (SQLite table row, INI section, JSON key or CSV line), " +
    "read its `location` and copy that file back.",
  params: Params,
  arity: "one",
  accepts: (path) => carriersFor([path]).length > 0,
  defaultParams: () => ({}),
  apply({ env, targets, params, seed }) {
    checkTargets("cross-reference", env, targets);
    const rng = new Rng(`cross-reference/${seed}`);
    const options = carriersFor(targets);
    const carrier = params.carrier ?? rng.pick(options);
    if (!options.includes(carrier)) {
      throw new UserError(`cross-reference: carrier ${carrier} cannot hold ${targets.join(", ")}`);
    }
    const kind = KINDS[carrier];
    const b = new TreeBuilder(env);
    const moved = targets.map((t) => [t, b.take(t)] as const);
    const file = b.firstFree(rng, [kind.file, `config/${kind.file}`]);
    b.put(file, new Uint8Array());
    const entries = moved.map(([t, bytes]) => {
      const loc = stashPath(b, rng, ".objects");
      b.put(loc, bytes);
      return [t, loc] as const;
    });
    b.replace(file, kind.build(entries));
    return {
      env: b.build(),
      access:
        `${codeList(targets)} ${targets.length === 1 ? "was" : "were"} moved. Where each file is now is recorded in ` +
        `${kind.describe(file)}, keyed by its original path; locations are relative to the environment root.`,
      restore: targets.map((t) => ({
        run: `${mkdirFor(t)}cp "$(python3 -c ${sq(kind.lookupPy)} ${pathArg(file)} ${sq(t)})" ${pathArg(t)}`,
        why: `look ${t} up in ${file} and copy it back`,
      })),
      produced: [file, ...entries.map(([, l]) => l)],
      removed: [...targets],
    };
  },
};
