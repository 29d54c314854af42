import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import type { Transform } from "../../types.js";
import { dirName, extension, inDir, stemName } from "../shared/names.js";
import { TABLES_TOOL_BYTES, TABLES_TOOL_PATH } from "../shared/py-tables.js";
import { pathArg, sq } from "../shared/shell.js";
import { blankCell, dialectSpec, isBlank, parseTable, serializeTable, type Table } from "../shared/table.js";
import { tableTarget, uniqueHeader } from "../shared/table-target.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ fraction: z.number().min(0.01).max(0.8) }).strict();
export type BackfillParams = z.infer<typeof Params>;

/**
 * The column that names rows in the sidecar: the first whose values are all distinct, non-empty
 * (strings in JSON lines); -1 means rows are named by their 1-based number.
 */
export function keyColumn(t: Table): number {
  return t.header.findIndex((h, j) => {
    if (h === "#") return false;
    const vals = t.rows.map((r) => r[j]);
    if (vals.some((v) => typeof v !== "string" || v === "")) return false;
    return new Set(vals).size === vals.length;
  });
}

function blankable(t: Table, key: number): [number, number][] {
  const out: [number, number][] = [];
  t.rows.forEach((r, i) => {
    r.forEach((v, j) => {
      if (j !== key && !isBlank(v)) out.push([i, j]);
    });
  });
  return out;
}

/**
 * Blanks some cells of a table and writes a sidecar table (`row`, `column`, `value`) listing what
 * each blanked cell held; filling them back gives the table exactly.
 */
export const backfillTransform: Transform<BackfillParams> = {
  name: "backfill",
  kind: "relation",
  basic: false,
  summary: "blank some table cells, keeping their values in a sidecar backfill table",
  restoreDoc:
    "For each sidecar entry (`row`, `column`, `value`), find the row (by the key column, or by 1-based row " +
    "number) and set that column to `value`.",
  params: Params,
  arity: "one",
  accepts(path, bytes) {
    const t = parseTable(path, bytes);
    return t !== undefined && uniqueHeader(t) && blankable(t, keyColumn(t)).length > 0;
  },
  defaultParams: (seed) => ({ fraction: [0.1, 0.2, 0.3][new Rng(seed).int(0, 2)] ?? 0.2 }),
  apply({ env, targets, params, seed }) {
    const t = tableTarget("backfill", env, targets);
    const target = targets[0] as string;
    const rng = new Rng(`backfill/${seed}`);
    const key = keyColumn(t);
    const cells = blankable(t, key);
    const count = Math.max(1, Math.round(cells.length * params.fraction));
    const chosen = rng
      .shuffle(cells)
      .slice(0, count)
      .sort(([ai, aj], [bi, bj]) => ai - bi || aj - bj);
    const jsonl = t.dialect.format === "jsonl";
    const rows = t.rows.map((r) => [...r]);
    const sidecarRows = chosen.map(([i, j]) => {
      const row = t.rows[i] as unknown[];
      (rows[i] as unknown[])[j] = blankCell(t);
      const name = key >= 0 ? row[key] : jsonl ? i + 1 : String(i + 1);
      return [name, t.header[j], row[j]];
    });
    const sidecar: Table = { dialect: t.dialect, header: ["row", "column", "value"], rows: sidecarRows };
    const b = new TreeBuilder(env);
    b.replace(target, serializeTable({ dialect: t.dialect, header: t.header, rows }));
    const sidecarPath = b.firstFree(rng, [
      inDir(dirName(target), `${stemName(target)}.backfill.${extension(target)}`),
    ]);
    b.put(sidecarPath, serializeTable(sidecar));
    const tool = b.placeShared(TABLES_TOOL_PATH, TABLES_TOOL_BYTES, rng);
    const keyName = key >= 0 ? (t.header[key] as string) : "#";
    const rowMeans =
      key >= 0
        ? `the row whose \`${keyName}\` equals \`row\``
        : "the row numbered `row` (1 = first data row)";
    const blank = jsonl ? "`null`" : "empty";
    return {
      env: b.build(),
      access:
        `Some cells of \`${target}\` were blanked (left ${blank}); \`${sidecarPath}\` lists them, one per line with ` +
        `columns \`row\`, \`column\` and \`value\`: in ${rowMeans}, column \`column\` held \`value\`. Fill them back ` +
        `to get the original table (\`python3 ${tool} backfill\` does this in place).`,
      restore: [
        {
          run: `python3 ${pathArg(tool)} backfill ${pathArg(target)} ${pathArg(sidecarPath)} ${sq(keyName)} ${sq(dialectSpec(t.dialect))}`,
          why: `fill the blanked cells of ${target} back from ${sidecarPath}`,
        },
      ],
      produced: [sidecarPath, tool],
      removed: [],
    };
  },
};
