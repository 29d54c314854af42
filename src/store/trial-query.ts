import { join, resolve } from "node:path";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { InfraError, type Outcome, type TrialResult, trialResultSchema } from "../core/index.js";
import { type OpenedDatabase, openDatabase } from "./database.js";
import { liveJobStatus } from "./job-status.js";
import type { Database } from "./schema.js";

/** Stands for "no model" (oracle, nop) in a model filter, since a query string cannot carry null. */
export const NO_MODEL = "-";

export const TRIAL_SORTS = ["trial", "task", "reward", "total_sec", "cost_usd", "started_at"] as const;
export type TrialSort = (typeof TRIAL_SORTS)[number];

export interface TrialFilter {
  model?: string;
  agent?: string;
  task?: string;
  outcome?: Outcome;
  /** Bounds on R, inclusive. Setting either leaves out trials without a reward. */
  rMin?: number;
  rMax?: number;
}

export interface TrialPageRequest {
  filter: TrialFilter;
  sort: TrialSort;
  desc: boolean;
  limit: number;
  offset: number;
}

export interface JobRow {
  id: string;
  status: string;
  created_at: string;
  trials: number;
  /** Mean R over the trials that have one (grading and infra errors have none), as the job summary does. */
  mean_reward: number | null;
}

/** One line of a trial list: the indexed columns only, never the full result JSON. */
export interface TrialRow {
  trial_id: string;
  task_name: string;
  category: string;
  agent: string;
  model: string | null;
  attempt: number;
  outcome: string;
  reward: number | null;
  total_sec: number;
  cost_usd: number;
  started_at: string;
}

export interface TrialPage {
  total: number;
  rows: TrialRow[];
}

export interface JobFacets {
  models: (string | null)[];
  agents: string[];
  tasks: string[];
}

const SORT_COLUMN = {
  trial: "trial_id",
  task: "task_name",
  reward: "reward",
  total_sec: "total_sec",
  cost_usd: "cost_usd",
  started_at: "started_at",
} as const satisfies Record<TrialSort, string>;

type TrialSelect<O> = SelectQueryBuilder<Database, "trials", O>;

/**
 * Read-only queries over the SQLite index for browsing results. Pages are cut in SQL
 * (LIMIT/OFFSET over the job's trials) so a job of 100,000 trials never comes into memory whole.
 */
export class TrialQuery {
  /** Whole-job aggregates, kept until another connection commits (PRAGMA data_version changes). */
  private readonly cache = new Map<string, { version: number; value: unknown }>();

  private constructor(
    private readonly opened: OpenedDatabase,
    private readonly jobsDir: string,
  ) {}

  static async open(jobsDir: string): Promise<TrialQuery> {
    const dir = resolve(jobsDir);
    const opened = await openDatabase(join(dir, "longhaul.db"));
    // A larger page cache keeps the browse index of a 100,000-trial job in memory between requests.
    await sql`PRAGMA cache_size = -65536`.execute(opened.db);
    return new TrialQuery(opened, dir);
  }

  async close(): Promise<void> {
    await this.opened.close();
  }

  private get db(): Kysely<Database> {
    return this.opened.db;
  }

  private async dataVersion(): Promise<number> {
    const res = await sql<{ data_version: number }>`PRAGMA data_version`.execute(this.db);
    return Number(res.rows[0]?.data_version ?? 0);
  }

  /**
   * Aggregates over a whole job scan every one of its index entries, so they are computed once
   * per change to the database rather than once per page view.
   */
  private async cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const version = await this.dataVersion();
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return hit.value as T;
    const value = await compute();
    // Many distinct filters would grow the cache without bound; starting over is cheap.
    if (this.cache.size >= 1000) this.cache.clear();
    this.cache.set(key, { version, value });
    return value;
  }

  async listJobs(): Promise<JobRow[]> {
    const rows = await this.cached("jobs", async () => {
      const rows = await this.jobSummaries().orderBy("jobs.created_at", "desc").orderBy("jobs.id").execute();
      return rows.map(toJobRow);
    });
    return Promise.all(rows.map((r) => this.live(r)));
  }

  async getJob(jobId: string): Promise<JobRow | null> {
    const row = await this.cached(`job:${jobId}`, async () => {
      const row = await this.jobSummaries().where("jobs.id", "=", jobId).executeTakeFirst();
      return row ? toJobRow(row) : null;
    });
    return row === null ? null : this.live(row);
  }

  /**
   * The row with the job's status as it stands (job-status.ts). Asked at every call, outside the
   * cache: a runner killed with kill -9 changes nothing in the database.
   */
  private async live(row: JobRow): Promise<JobRow> {
    const status = await liveJobStatus(this.jobsDir, row.id, row.status, async () => {
      const now = await this.db
        .selectFrom("jobs")
        .select("status")
        .where("id", "=", row.id)
        .executeTakeFirst();
      return now?.status;
    });
    return status === row.status ? row : { ...row, status };
  }

  private jobSummaries() {
    return this.db
      .selectFrom("jobs")
      .leftJoin("trials", "trials.job_id", "jobs.id")
      .select((eb) => [
        "jobs.id",
        "jobs.status",
        "jobs.created_at",
        eb.fn.count<number>("trials.trial_id").as("trials"),
        // As in `report`: infrastructure failures are left out, a grading error counts as R = 0.
        sql<
          number | null
        >`avg(case when trials.outcome = 'infra_error' then null else coalesce(trials.reward, 0) end)`.as(
          "mean_reward",
        ),
      ])
      .groupBy("jobs.id");
  }

  /** The distinct values a job's trials can be filtered by. */
  async facets(jobId: string): Promise<JobFacets> {
    return this.cached(`facets:${jobId}`, () => this.computeFacets(jobId));
  }

  private async computeFacets(jobId: string): Promise<JobFacets> {
    const [models, agents, tasks] = await Promise.all([
      this.db
        .selectFrom("trials")
        .select("model")
        .distinct()
        .where("job_id", "=", jobId)
        .orderBy("model")
        .execute(),
      this.db
        .selectFrom("trials")
        .select("agent")
        .distinct()
        .where("job_id", "=", jobId)
        .orderBy("agent")
        .execute(),
      this.db
        .selectFrom("trials")
        .select("task_name")
        .distinct()
        .where("job_id", "=", jobId)
        .orderBy("task_name")
        .execute(),
    ]);
    return {
      models: models.map((r) => r.model),
      agents: agents.map((r) => r.agent),
      tasks: tasks.map((r) => r.task_name),
    };
  }

  async page(jobId: string, req: TrialPageRequest): Promise<TrialPage> {
    const base = applyFilter(this.db.selectFrom("trials").where("job_id", "=", jobId), req.filter);
    const dir = req.desc ? "desc" : "asc";
    const column = SORT_COLUMN[req.sort];
    let rowsQuery = base.select([
      "trial_id",
      "task_name",
      "category",
      "agent",
      "model",
      "attempt",
      "outcome",
      "reward",
      "total_sec",
      "cost_usd",
      "started_at",
    ]);
    // Trials without R sort after those with one either way, so "best first" and "worst first" both lead with real scores.
    if (column === "reward") rowsQuery = rowsQuery.orderBy((eb) => eb("reward", "is", null));
    rowsQuery = rowsQuery.orderBy(column, dir);
    if (column !== "trial_id") rowsQuery = rowsQuery.orderBy("trial_id", dir);
    const rows = await rowsQuery.limit(req.limit).offset(req.offset).execute();
    // Counting scans every matching index entry; paging through one filter reuses the count.
    const total = await this.cached(`count:${jobId}:${JSON.stringify(req.filter)}`, async () => {
      const count = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
      return Number(count?.n ?? 0);
    });
    return { total, rows };
  }

  async getTrial(jobId: string, trialId: string): Promise<TrialResult | null> {
    const row = await this.db
      .selectFrom("trials")
      .select("result_json")
      .where("job_id", "=", jobId)
      .where("trial_id", "=", trialId)
      .executeTakeFirst();
    if (!row) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(row.result_json);
    } catch {
      // The parser's message quotes the stored text; the reason names only what is wrong.
      throw new UnreadableTrialError(jobId, trialId, "not valid JSON");
    }
    const parsed = trialResultSchema.safeParse(raw);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.join(".") || "(top level)";
      throw new UnreadableTrialError(jobId, trialId, `field ${field} does not match the trial result schema`);
    }
    return parsed.data;
  }
}

/**
 * An index row whose stored result cannot be read back (edited by hand, written by another
 * version, damaged on disk). It names the trial and what is wrong, never the stored text, so a
 * list can show it beside the row and a trial page can refuse just that trial.
 */
export class UnreadableTrialError extends InfraError {
  readonly reason: string;
  constructor(
    readonly jobId: string,
    readonly trialId: string,
    reason: string,
  ) {
    super(`trial ${trialId} of job ${jobId}: result unreadable: ${reason}`, { retryable: false });
    this.reason = reason;
  }
}

function applyFilter<O>(q: TrialSelect<O>, f: TrialFilter): TrialSelect<O> {
  let out = q;
  if (f.model !== undefined) {
    out = f.model === NO_MODEL ? out.where("model", "is", null) : out.where("model", "=", f.model);
  }
  if (f.agent !== undefined) out = out.where("agent", "=", f.agent);
  if (f.task !== undefined) out = out.where("task_name", "=", f.task);
  if (f.outcome !== undefined) out = out.where("outcome", "=", f.outcome);
  if (f.rMin !== undefined) out = out.where("reward", ">=", f.rMin);
  if (f.rMax !== undefined) out = out.where("reward", "<=", f.rMax);
  return out;
}

function toJobRow(r: {
  id: string;
  status: string;
  created_at: string;
  trials: number;
  mean_reward: number | null;
}): JobRow {
  return {
    id: r.id,
    status: r.status,
    created_at: r.created_at,
    trials: Number(r.trials),
    mean_reward: r.mean_reward === null ? null : Number(r.mean_reward),
  };
}
