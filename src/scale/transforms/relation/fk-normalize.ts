import { z } from "zod";
import { UserError } from "../../../core/errors.js";
import { Rng } from "../../../core/rng.js";
import type { Transform } from "../../types.js";
import { dirName, extension, inDir, stemName } from "../shared/names.js";
import { TABLES_TOOL_BYTES, TABLES_TOOL_PATH } from "../shared/py-tables.js";
import { pathArg, sq } from "../shared/shell.js";
import {
  cellText,
  dialectSpec,
  freshColumn,
  parseTable,
  serializeTable,
  type Table,
} from "../shared/table.js";
import { tableTarget, uniqueHeader } from "../shared/table-target.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ column: z.string().optional() }).strict();
export type FkNormalizeParams = z.infer<typeof Params>;

/** Columns whose values repeat (fewer distinct values than rows): worth a lookup table. */
export function repeatedColumns(t: Table): number[] {
  const out: number[] = [];
  t.header.forEach((_, j) => {
    const distinct = new Set(t.rows.map((r) => cellText(t, r[j])));
    if (t.rows.length >= 2 && distinct.size < t.rows.length) out.push(j);
  });
  return out;
}

/**
 * Normalises a table: one column with repeated values is replaced by integer ids into a lookup
 * table (`id`, `value`), like a foreign key. Joining back in row order gives the table exactly.
 */
export const fkNormalizeTransform: Transform<FkNormalizeParams> = {
  name: "fk-normalize",
  kind: "relation",
  basic: false,
  summary: "split a table's repeated-value column into integer ids plus a lookup table",
  restoreDoc:
    "Join the fact table back to the lookup table: replace each id in the id column by the lookup's `value` " +
    "for that `id`, rename the column back, keep row order.",
  params: Params,
  arity: "one",
  accepts(path, bytes) {
    const t = parseTable(path, bytes);
    return t !== undefined && uniqueHeader(t) && repeatedColumns(t).length > 0;
  },
  defaultParams: () => ({}),
  apply({ env, targets, params, seed }) {
    const t = tableTarget("fk-normalize", env, targets);
    const target = targets[0] as string;
    const rng = new Rng(`fk-normalize/${seed}`);
    const candidates = repeatedColumns(t);
    let j: number;
    if (params.column !== undefined) {
      j = t.header.indexOf(params.column);
      if (!candidates.includes(j)) {
        throw new UserError(
          `${target}: column ${JSON.stringify(params.column)} has no repeated values to normalise`,
        );
      }
    } else j = rng.pick(candidates);
    const column = t.header[j] as string;
    const idColumn = freshColumn(t.header, `${column}_id`);
    const jsonl = t.dialect.format === "jsonl";
    const distinct = new Map<string, unknown>();
    for (const r of t.rows) distinct.set(cellText(t, r[j]), r[j]);
    const order = rng.shuffle([...distinct.keys()]);
    const ids = new Map(order.map((k, i) => [k, i + 1]));
    const idCell = (id: number): unknown => (jsonl ? id : String(id));
    const facts: Table = {
      dialect: t.dialect,
      header: t.header.map((h, k) => (k === j ? idColumn : h)),
      rows: t.rows.map((r) => r.map((c, k) => (k === j ? idCell(ids.get(cellText(t, c)) ?? 0) : c))),
    };
    const lookup: Table = {
      dialect: t.dialect,
      header: ["id", "value"],
      rows: order.map((k, i) => [idCell(i + 1), distinct.get(k)]),
    };
    const b = new TreeBuilder(env);
    b.take(target);
    const dir = dirName(target);
    const stem = stemName(target);
    const ext = extension(target);
    const factsPath = b.firstFree(rng, [inDir(dir, `${stem}.facts.${ext}`)]);
    b.put(factsPath, serializeTable(facts));
    const lookupPath = b.firstFree(rng, [inDir(dir, `${stem}.lookup.${ext}`)]);
    b.put(lookupPath, serializeTable(lookup));
    const tool = b.placeShared(TABLES_TOOL_PATH, TABLES_TOOL_BYTES, rng);
    const args = [factsPath, lookupPath].map(pathArg).join(" ");
    return {
      env: b.build(),
      access:
        `\`${target}\` is stored normalised: its rows, in order, are in \`${factsPath}\`, where column ` +
        `\`${idColumn}\` holds integer ids into \`${lookupPath}\` (columns \`id\` and \`value\`). Replace each id by ` +
        `its value and name the column \`${column}\` again to get the original table (\`python3 ${tool} join\` does this).`,
      restore: [
        {
          run: `python3 ${pathArg(tool)} join ${args} ${sq(idColumn)} ${sq(column)} ${sq(dialectSpec(t.dialect))} ${pathArg(target)}`,
          why: `join ${factsPath} with ${lookupPath} back into ${target}`,
        },
      ],
      produced: [factsPath, lookupPath, tool],
      removed: [target],
    };
  },
};
