import { extension } from "../shared/names.js";
import { ident, readSqlite } from "../shared/sqlite.js";

/** One user table of a database and the columns a migration may rename or rescale. */
export interface TableShape {
  name: string;
  columns: string[];
  /** Integer-only columns outside keys, indexes, foreign keys and CHECKs, small enough to scale by 1000. */
  scalable: string[];
}

export interface DbShape {
  tables: TableShape[];
  /** Every schema object name, lowercased (tables and indexes share one namespace). */
  names: Set<string>;
}

const LIMIT = 9_000_000_000_000_000n;

/**
 * Reads a database's shape, or undefined when a schema migration could not round-trip it
 * exactly: unreadable, no user table, or views, triggers, virtual or generated columns.
 */
export function inspectDb(path: string, bytes: Uint8Array): DbShape | undefined {
  if (!["sqlite", "sqlite3", "db"].includes(extension(path))) return undefined;
  return readSqlite(bytes, (db) => {
    db.defaultSafeIntegers(true);
    const objects = db.prepare("SELECT type, name, sql FROM sqlite_master").all() as {
      type: string;
      name: string;
      sql: string | null;
    }[];
    if (objects.some((o) => o.type !== "table" && o.type !== "index")) return undefined;
    if (objects.some((o) => /^\s*create\s+virtual/i.test(o.sql ?? ""))) return undefined;
    const tables: TableShape[] = [];
    for (const o of objects.filter((x) => x.type === "table" && !x.name.startsWith("sqlite_"))) {
      const t = ident(o.name);
      const cols = db.prepare(`PRAGMA table_xinfo(${t})`).all() as {
        name: string;
        pk: bigint;
        hidden: bigint;
      }[];
      if (cols.some((c) => c.hidden !== 0n)) return undefined;
      const indexed = new Set<string>();
      for (const ix of db.prepare(`PRAGMA index_list(${t})`).all() as { name: string }[]) {
        for (const c of db.prepare(`PRAGMA index_info(${ident(ix.name)})`).all() as {
          name: string | null;
        }[]) {
          if (c.name !== null) indexed.add(c.name);
        }
      }
      for (const fk of db.prepare(`PRAGMA foreign_key_list(${t})`).all() as { from: string }[])
        indexed.add(fk.from);
      const hasCheck = /\bcheck\b/i.test(o.sql ?? "");
      const scalable = hasCheck
        ? []
        : cols
            .filter((c) => c.pk === 0n && !indexed.has(c.name))
            .filter((c) => {
              const q = ident(c.name);
              const r = db
                .prepare(
                  `SELECT sum(typeof(${q}) NOT IN ('integer', 'null')) AS bad, sum(typeof(${q}) = 'integer') AS ints, ` +
                    `min(${q}) AS lo, max(${q}) AS hi FROM ${t}`,
                )
                .get() as { bad: bigint | null; ints: bigint | null; lo: bigint | null; hi: bigint | null };
              return (
                r.bad === 0n &&
                (r.ints ?? 0n) > 0n &&
                (r.lo ?? 0n) * 1000n > -LIMIT &&
                (r.hi ?? 0n) * 1000n < LIMIT
              );
            })
            .map((c) => c.name);
      tables.push({ name: o.name, columns: cols.map((c) => c.name), scalable });
    }
    if (tables.length === 0) return undefined;
    return { tables, names: new Set(objects.map((o) => o.name.toLowerCase())) };
  });
}
