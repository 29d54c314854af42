import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";

/**
 * Builds an SQLite database in a private temporary folder and returns its bytes. The journal is
 * kept in memory and the file is vacuumed, so the same statements always give the same bytes.
 */
export function buildSqlite(build: (db: BetterSqlite3.Database) => void): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "lh-sqlite-"));
  try {
    const file = join(dir, "build.sqlite");
    const db = new BetterSqlite3(file);
    try {
      db.pragma("journal_mode = MEMORY");
      db.transaction(() => build(db))();
      db.exec("VACUUM");
    } finally {
      db.close();
    }
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An SQL identifier in double quotes. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
