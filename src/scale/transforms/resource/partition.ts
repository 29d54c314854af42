import { extname } from "node:path";
import { z } from "zod";
import { canonicalJson } from "../../facts.js";
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
} from "./common.js";
import { JOIN_CSV_PARTS } from "./table-scripts.js";
import { readCsvTable, readJsonlObjects, writeCsv } from "./tables.js";

const STYLES = ["parts", "shards", "by-key"] as const;
const MAX_PARTS = 8;

const params = z
  .object({
    /** Which candidate key column (modulo the number of candidates). */
    key: z.number().int().min(0).max(1_000_000),
    folder: z.enum(STYLES),
  })
  .strict();
type PartitionParams = z.infer<typeof params>;

/** A table split into groups: the key columns that make 2..8 groups of rows, and how to write one group. */
interface Partitionable {
  kind: "csv" | "jsonl";
  /** Candidate key columns: a name for people and the group label of every record. */
  keys: { name: string; labels: string[] }[];
  write(records: number[]): Uint8Array;
}

function usable(labels: readonly string[]): boolean {
  const n = new Set(labels).size;
  return n >= 2 && n <= MAX_PARTS && n < labels.length;
}

function analyse(path: string, bytes: Uint8Array): Partitionable | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") {
    const t = readCsvTable(bytes);
    if (t === undefined) return undefined;
    const keys = t.header
      .map((_, c) => ({ name: `column ${c + 1}`, labels: t.rows.map((r) => r[c] as string) }))
      .filter((k) => usable(k.labels));
    return {
      kind: "csv",
      keys,
      write: (idx) => writeCsv([t.header, ...idx.map((i) => t.rows[i] as string[])]),
    };
  }
  if (ext === ".jsonl") {
    const lines = readJsonlObjects(bytes);
    const first = lines?.[0];
    if (lines === undefined || first === undefined) return undefined;
    const keys = Object.keys(first.value)
      .filter((k) =>
        lines.every(
          (l) => Object.hasOwn(l.value, k) && (typeof l.value[k] !== "object" || l.value[k] === null),
        ),
      )
      .map((k) => ({ name: `key \`${k}\``, labels: lines.map((l) => canonicalJson(l.value[k])) }))
      .filter((k) => usable(k.labels));
    return {
      kind: "jsonl",
      keys,
      write: (idx) => utf8.encode(idx.map((i) => `${lines[i]?.line}\n`).join("")),
    };
  }
  return undefined;
}

export const partition: Transform<PartitionParams> = resourceTransform<PartitionParams>({
  name: "partition",
  basic: false,
  summary: "Splits a CSV or JSONL table's rows into several files by the value of one key column.",
  restoreDoc:
    "Join the part files: for CSV, keep the header once and append every part's data rows (python3 csv); " +
    "for JSONL, concatenate the parts. Row order is not kept; the set of rows is.",
  params,
  arity: "one",
  accepts: (path, bytes) => (analyse(path, bytes)?.keys.length ?? 0) > 0,
  defaultParams(seed) {
    const rng = rngFor("partition/params", seed);
    return { key: rng.int(0, 999), folder: rng.pick(STYLES) };
  },
  apply({ env, targets, params: p, seed }) {
    const [target] = targets as [string];
    const table = analyse(target, fileOf(partition, env, target)) as Partitionable;
    const key = table.keys[p.key % table.keys.length] as { name: string; labels: string[] };
    const groups = new Map<string, number[]>();
    key.labels.forEach((label, i) => {
      groups.set(label, [...(groups.get(label) ?? []), i]);
    });
    const rng = rngFor("partition", seed);
    const paths = new PathPicker(env);
    let folder = inDir(dirOf(target), `${stemOf(target)}.${p.folder}`);
    while (!paths.isFree(folder))
      folder = inDir(dirOf(target), `${stemOf(target)}.${p.folder}-${hexId(rng, 4)}`);
    const ext = table.kind === "csv" ? ".csv" : ".jsonl";
    // Part names are random, so their order says nothing about the key values.
    const parts = paths
      .pickGroup(() => [...groups.keys()].map(() => `${folder}/part-${hexId(rng, 4)}${ext}`))
      .sort();
    const labels = rng.shuffle([...groups.keys()].sort());
    const out = cloneTree(env);
    out.delete(target);
    parts.forEach((part, i) => {
      out.set(part, table.write(groups.get(labels[i] as string) as number[]));
    });
    const list = parts.map(shq).join(" ");
    const run =
      table.kind === "csv"
        ? `python3 -c ${shq(JOIN_CSV_PARTS)} ${shq(target)} ${list} && rm -f ${list}`
        : `cat ${list} > ${shq(target)} && rm -f ${list}`;
    const shape =
      table.kind === "csv"
        ? "each a CSV file with the original header row and the data rows of one value"
        : "each a JSONL file holding the lines of one value";
    return {
      env: out,
      access:
        `The rows of ${code(target)} have been split by the value of its ${key.name} into ${parts.length} files in ` +
        `${code(`${folder}/`)}, ${shape}: ${parts.map(code).join(", ")}. Together they hold every row exactly once ` +
        "(the original row order is not kept).",
      restore: [{ run, why: `join the ${parts.length} parts of ${target}` }],
      produced: parts,
      removed: [target],
    };
  },
});
