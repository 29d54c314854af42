import { UserError } from "../../../core/errors.js";
import { parseTable, type Table } from "./table.js";

/** True when the header names are distinct, so a column can be found by name. */
export function uniqueHeader(t: Table): boolean {
  return new Set(t.header).size === t.header.length;
}

/** Parses the single table target of a table transform, or refuses it naming the file. */
export function tableTarget(
  name: string,
  env: ReadonlyMap<string, Uint8Array>,
  targets: readonly string[],
): Table {
  if (targets.length !== 1)
    throw new UserError(`transform ${name}: binds exactly one table, got ${targets.length}`);
  const path = targets[0] as string;
  const bytes = env.get(path);
  if (bytes === undefined)
    throw new UserError(`transform ${name}: target ${JSON.stringify(path)} is not in the environment`);
  const t = parseTable(path, bytes);
  if (t === undefined || !uniqueHeader(t)) {
    throw new UserError(
      `${path}: transform ${name} needs a CSV, TSV or JSON-lines table it can write back exactly`,
    );
  }
  return t;
}
