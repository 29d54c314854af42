import { extname } from "node:path";
import { z } from "zod";
import { cloneTree, utf8 } from "../../file-tree.js";
import type { Transform } from "../../types.js";
import {
  code,
  dirOf,
  fileOf,
  hexId,
  inDir,
  PathPicker,
  resourceTransform,
  rngFor,
  shq,
  stemOf,
  utf8Text,
} from "./common.js";
import { RENAME_FIELDS } from "./table-scripts.js";
import { type JsonObject, readCsv, readJsonlObjects, writeCsv } from "./tables.js";

type Kind = "csv" | "jsonl" | "json";

const PREFIXES = ["f_", "col_", "k"] as const;
const SUFFIXES = ["fields", "dictionary", "columns"] as const;

const params = z.object({ prefix: z.enum(PREFIXES), dictionary: z.enum(SUFFIXES) }).strict();
type FieldRenameParams = z.infer<typeof params>;

/** The field names of a file and how to write it with them renamed. */
interface Fields {
  kind: Kind;
  /** Which names were replaced, for the access text. */
  what: string;
  names: string[];
  write(rename: ReadonlyMap<string, string>): Uint8Array;
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function renameKeys(o: JsonObject, rename: ReadonlyMap<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [rename.get(k) ?? k, v]));
}

function unionKeys(objects: readonly JsonObject[]): string[] {
  return [...new Set(objects.flatMap((o) => Object.keys(o)))];
}

function fieldsOf(path: string, bytes: Uint8Array): Fields | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") {
    const rows = readCsv(bytes);
    const header = rows?.[0];
    if (rows === undefined || header === undefined || new Set(header).size !== header.length)
      return undefined;
    return {
      kind: "csv",
      what: "its CSV header's column names",
      names: header,
      write: (r) => writeCsv([header.map((h) => r.get(h) ?? h), ...rows.slice(1)]),
    };
  }
  if (ext === ".jsonl") {
    const lines = readJsonlObjects(bytes);
    if (lines === undefined) return undefined;
    const values = lines.map((l) => l.value);
    const names = unionKeys(values);
    const write = (r: ReadonlyMap<string, string>) =>
      utf8.encode(values.map((v) => `${JSON.stringify(renameKeys(v, r))}\n`).join(""));
    return names.length > 0
      ? { kind: "jsonl", what: "the keys of its JSON objects", names, write }
      : undefined;
  }
  if (ext === ".json") {
    const text = utf8Text(bytes);
    if (text === undefined) return undefined;
    let doc: unknown;
    try {
      doc = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch {
      return undefined;
    }
    const objects = isObject(doc)
      ? [doc]
      : Array.isArray(doc) && doc.every(isObject)
        ? (doc as JsonObject[])
        : [];
    const names = unionKeys(objects);
    const write = (r: ReadonlyMap<string, string>) => {
      const renamed = isObject(doc) ? renameKeys(doc, r) : objects.map((o) => renameKeys(o, r));
      return utf8.encode(`${JSON.stringify(renamed, null, 2)}\n`);
    };
    const what = isObject(doc) ? "its top-level keys" : "the keys of each object in its top-level array";
    return names.length > 0 ? { kind: "json", what, names, write } : undefined;
  }
  return undefined;
}

export const fieldRename: Transform<FieldRenameParams> = resourceTransform<FieldRenameParams>({
  name: "field-rename",
  basic: false,
  summary:
    "Renames a table's columns or a JSON document's keys to opaque codes, with a data dictionary to map them back.",
  restoreDoc:
    "Rename every code back to the name the data dictionary's `fields` map gives it (python3 csv/json), then delete the dictionary.",
  params,
  arity: "one",
  accepts: (path, bytes) => fieldsOf(path, bytes) !== undefined,
  defaultParams(seed) {
    const rng = rngFor("field-rename/params", seed);
    return { prefix: rng.pick(PREFIXES), dictionary: rng.pick(SUFFIXES) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const fields = fieldsOf(target, fileOf(fieldRename, env, target)) as Fields;
    const rng = rngFor("field-rename", seed);
    const used = new Set(fields.names);
    const rename = new Map<string, string>();
    for (const name of fields.names) {
      let opaque: string;
      do opaque = `${p.prefix}${hexId(rng, 4)}`;
      while (used.has(opaque));
      used.add(opaque);
      rename.set(name, opaque);
    }
    const dir = dirOf(target);
    const dictionary = new PathPicker(env).pick((i) =>
      inDir(dir, `${stemOf(target)}.${i === 0 ? "" : `${hexId(rng, 4)}.`}${p.dictionary}.json`),
    );
    const doc = {
      file: target,
      fields: Object.fromEntries([...rename].map(([orig, opaque]) => [opaque, orig])),
    };
    const out = cloneTree(env);
    out.set(target, fields.write(rename));
    out.set(dictionary, utf8.encode(`${JSON.stringify(doc, null, 2)}\n`));
    return {
      env: out,
      access:
        `In ${code(target)}, ${fields.what} have been replaced by opaque codes (${p.prefix}…). ` +
        `The data dictionary ${code(dictionary)} maps each code to the original name in its \`fields\` object; ` +
        "the values are unchanged.",
      restore: [
        {
          run: `python3 -c ${shq(RENAME_FIELDS)} ${shq(target)} ${shq(dictionary)} ${fields.kind} && rm -f ${shq(dictionary)}`,
          why: `rename the fields of ${target} back using ${dictionary}`,
        },
      ],
      produced: [dictionary],
      removed: [],
    };
  },
});
