import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

type Db = InstanceType<typeof Database>;

/**
 * Runs `work` on an SQLite database in a private temporary folder (starting from `initial`
 * bytes, or empty) and returns the file's bytes afterwards. The same statements on the same
 * input give the same bytes: SQLite writes no clock or host data into the file.
 */
export function withSqlite<T>(
  initial: Uint8Array | undefined,
  work: (db: Db) => T,
): { bytes: Uint8Array; result: T } {
  const dir = mkdtempSync(join(tmpdir(), "scale-sqlite-"));
  try {
    const file = join(dir, "db.sqlite");
    if (initial !== undefined) writeFileSync(file, initial);
    const db = new Database(file);
    let result: T;
    try {
      result = work(db);
    } finally {
      db.close();
    }
    return { bytes: new Uint8Array(readFileSync(file)), result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads from an SQLite file without changing it; undefined when it is not a readable database. */
export function readSqlite<T>(bytes: Uint8Array, read: (db: Db) => T): T | undefined {
  try {
    return withSqlite(bytes, (db) => {
      db.pragma("query_only = ON");
      return read(db);
    }).result;
  } catch {
    return undefined;
  }
}

/** An SQL identifier in double quotes. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** An SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
