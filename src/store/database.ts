import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { InfraError } from "../core/index.js";
import { migrationProvider } from "./migrations.js";
import type { Database } from "./schema.js";

export interface OpenedDatabase {
  db: Kysely<Database>;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite index in WAL mode and applies pending migrations. */
export async function openDatabase(path: string): Promise<OpenedDatabase> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new InfraError(`migrating ${path} failed at ${failed}: ${String(error)}`, { retryable: false });
  }
  return { db, close: () => db.destroy() };
}
