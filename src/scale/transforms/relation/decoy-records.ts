import { z } from "zod";
import { Rng } from "../../../core/rng.js";
import type { Transform } from "../../types.js";
import { perturbRow } from "../shared/perturb.js";
import { TABLES_TOOL_BYTES, TABLES_TOOL_PATH } from "../shared/py-tables.js";
import { pathArg, sq } from "../shared/shell.js";
import { dialectSpec, freshColumn, parseTable, serializeTable, type Table } from "../shared/table.js";
import { tableTarget, uniqueHeader } from "../shared/table-target.js";
import { TreeBuilder } from "../shared/tree-builder.js";

const Params = z.object({ ratio: z.number().min(0.05).max(2) }).strict();
export type DecoyRecordsParams = z.infer<typeof Params>;

const LIVE = "active";
const DECOY_FLAGS = ["retracted", "superseded", "void", "duplicate"] as const;

/** At least one row, and some row that can be altered plausibly. */
function decoyable(t: Table): boolean {
  const probe = new Rng(1);
  return t.rows.some((r) => perturbRow(t, r, probe) !== undefined);
}

/**
 * Mixes flagged decoy rows into a table: a status column is added, real rows read `active`, and
 * plausible altered copies of real rows read e.g. `retracted`. Dropping every row not `active`
 * and the status column gives the table back exactly, in order.
 */
export const decoyRecordsTransform: Transform<DecoyRecordsParams> = {
  name: "decoy-records",
  kind: "relation",
  basic: false,
  summary: "add flagged decoy rows (altered copies) to a table, with a status column",
  restoreDoc:
    "Keep only the rows whose status column reads `active`, then delete the status column; order is kept.",
  params: Params,
  arity: "one",
  accepts(path, bytes) {
    const t = parseTable(path, bytes);
    return t !== undefined && uniqueHeader(t) && decoyable(t);
  },
  defaultParams: (seed) => ({ ratio: [0.2, 0.3, 0.5][new Rng(seed).int(0, 2)] ?? 0.3 }),
  apply({ env, targets, params, seed }) {
    const t = tableTarget("decoy-records", env, targets);
    const target = targets[0] as string;
    const rng = new Rng(`decoy-records/${seed}`);
    const flag = freshColumn(t.header, "_status");
    const at = rng.int(0, t.header.length);
    const withFlag = (row: readonly unknown[], status: string): unknown[] => [
      ...row.slice(0, at),
      status,
      ...row.slice(at),
    ];
    const rows: unknown[][] = t.rows.map((r) => withFlag(r, LIVE));
    const count = Math.max(1, Math.round(t.rows.length * params.ratio));
    for (let k = 0; k < count; k++) {
      let decoy: unknown[] | undefined;
      for (let tries = 0; decoy === undefined && tries < 20; tries++)
        decoy = perturbRow(t, rng.pick(t.rows), rng);
      if (decoy === undefined) break;
      rows.splice(rng.int(0, rows.length), 0, withFlag(decoy, rng.pick(DECOY_FLAGS)));
    }
    const b = new TreeBuilder(env);
    b.replace(
      target,
      serializeTable({ dialect: t.dialect, header: withFlag(t.header, flag) as string[], rows }),
    );
    const tool = b.placeShared(TABLES_TOOL_PATH, TABLES_TOOL_BYTES, rng);
    return {
      env: b.build(),
      access:
        `\`${target}\` now also holds decoy records: its column \`${flag}\` reads \`${LIVE}\` for the real rows and ` +
        `something else (such as \`retracted\`) for decoys. The original table is the \`${LIVE}\` rows, in order, ` +
        `without the \`${flag}\` column (\`python3 ${tool} drop-flagged\` does this in place).`,
      restore: [
        {
          run: `python3 ${pathArg(tool)} drop-flagged ${pathArg(target)} ${sq(flag)} ${LIVE} ${sq(dialectSpec(t.dialect))}`,
          why: `drop the decoy rows and the ${flag} column of ${target}`,
        },
      ],
      produced: [tool],
      removed: [],
    };
  },
};
