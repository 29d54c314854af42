import { accessSync, constants, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { errorMessage, InfraError, UserError } from "../core/index.js";
import { migrationProvider } from "./migrations.js";
import type { Database } from "./schema.js";
import { writeProblem } from "./write-error.js";

export interface OpenedDatabase {
  db: Kysely<Database>;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite index in WAL mode and applies pending migrations. */
export async function openDatabase(path: string): Promise<OpenedDatabase> {
  mkdirSync(dirname(path), { recursive: true });
  let sqlite: BetterSqlite3.Database | undefined;
  try {
    sqlite = new BetterSqlite3(path);
    // First, so that switching a new file to WAL waits for another process doing the same.
    sqlite.pragma("busy_timeout = 10000");
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = ON");
    // Reads the schema, so a file that is not a database (or a damaged one) fails here, not mid-command.
    sqlite.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (e) {
    sqlite?.close();
    throw databaseError(path, e);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await migrate(db);
  if (error) {
    await db.destroy();
    if (isDamaged(error)) throw databaseError(path, error);
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new InfraError(`migrating ${path} failed at ${failed}: ${String(error)}`, { retryable: false });
  }
  return { db, close: () => db.destroy() };
}

/**
 * Two processes opening a new index at once (two `longhaul run` on one jobs folder) both find
 * no migration applied; the one that loses the race to write fails on a table the other just
 * made, or on a stale read snapshot. Trying again then finds the migrations applied.
 */
async function migrate(db: Kysely<Database>): ReturnType<Migrator["migrateToLatest"]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  for (let attempt = 1; ; attempt++) {
    const out = await migrator.migrateToLatest();
    const raced =
      out.error !== undefined && /SQLITE_BUSY|already exists|database is locked/.test(String(out.error));
    if (!raced || attempt >= 5) return out;
    await new Promise((r) => setTimeout(r, 50 * attempt));
  }
}

const DAMAGED = new Set([
  "SQLITE_NOTADB",
  "SQLITE_CORRUPT",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_IOERR",
]);

function unwritable(dir: string): string | null {
  try {
    accessSync(dir, constants.W_OK);
    return null;
  } catch (e) {
    return writeProblem(e, dir);
  }
}

function isDamaged(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && [...DAMAGED].some((c) => code.startsWith(c));
}

/**
 * The index is rebuilt from the job folders (which hold every result), so a file that is not a
 * usable database is the user's to move aside, not a crash.
 */
function databaseError(path: string, e: unknown): Error {
  if (!isDamaged(e)) return e instanceof Error ? e : new Error(String(e));
  // SQLite cannot open even a sound index in a folder it may not write (WAL keeps files beside it):
  // the folder is the problem then, and moving the index aside would not help.
  const folder = unwritable(dirname(path));
  if (folder !== null) {
    return new UserError(`cannot open the index ${path}: the jobs dir is not writable (${folder})`, {
      cause: e,
    });
  }
  return new UserError(
    `${path}: not a usable SQLite database (${errorMessage(e)}); move it aside and run \`longhaul run --resume --job NAME\` to re-index a job from its folder`,
    { cause: e },
  );
}
