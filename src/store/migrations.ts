import { type Kysely, type Migration, type MigrationProvider, sql } from "kysely";

/**
 * Migrations are code, applied in name order and recorded by kysely's Migrator. Never edit a
 * shipped migration: add a new one.
 */
const migrations: Record<string, Migration> = {
  "0001_jobs_and_trials": {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("jobs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("config_json", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("trials")
        .addColumn("trial_id", "text", (c) => c.notNull())
        .addColumn("job_id", "text", (c) => c.notNull().references("jobs.id").onDelete("cascade"))
        .addColumn("task_name", "text", (c) => c.notNull())
        .addColumn("task_checksum", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("agent", "text", (c) => c.notNull())
        .addColumn("model", "text")
        .addColumn("attempt", "integer", (c) => c.notNull())
        .addColumn("seed", "integer", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("reward", "real")
        .addColumn("self_terminated", "integer", (c) => c.notNull())
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("finished_at", "text", (c) => c.notNull())
        .addColumn("total_sec", "real", (c) => c.notNull())
        .addColumn("cost_usd", "real", (c) => c.notNull())
        .addColumn("result_json", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("trials_pk", ["job_id", "trial_id"])
        .execute();
      await sql`CREATE INDEX trials_by_model ON trials (job_id, agent, model)`.execute(db);
      await sql`CREATE INDEX trials_by_task ON trials (job_id, task_name)`.execute(db);
    },
  },
  // Every column a trial list shows or filters on, so browsing a large job reads this narrow index
  // and never the wide rows that carry result_json (see src/store/trial-query.ts).
  "0002_trials_browse": {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`CREATE INDEX trials_browse ON trials (job_id, trial_id, task_name, agent, model, outcome,
        reward, attempt, category, total_sec, cost_usd, started_at)`.execute(db);
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
