import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkJobName, readUserText, type TrialResult, trialResultSchema, UserError } from "../core/index.js";
import { writeJsonAtomic } from "./atomic-write.js";
import { type OpenedDatabase, openDatabase } from "./database.js";
import { harborJobFields, harborTrialFields } from "./harbor-fields.js";
import { type JobConfig, parseJobConfig } from "./job-config.js";
import { type JobLock, lockJob } from "./job-lock.js";
import { liveJobStatus } from "./job-status.js";
import { checkJobsDir, makeJobsDir } from "./jobs-dir.js";
import { corruptTrial, parseTrialFile } from "./trial-file.js";
import { storeWrite, storeWriteError } from "./write-error.js";

export type JobStatus = "running" | "interrupted" | "finished";

/**
 * Jobs on disk plus their SQLite index. Layout:
 *   <jobs-dir>/longhaul.db                 index (WAL)
 *   <jobs-dir>/<job>/config.json           how the job was started
 *   <jobs-dir>/<job>/result.json           summary, rewritten when the job ends
 *   <jobs-dir>/<job>/<trial>/result.json   one trial (written last, atomically: its presence means done)
 *   <jobs-dir>/<job>/<trial>/agent/, verifier/  logs
 */
export class JobStore {
  readonly jobsDir: string;
  private readonly opened: OpenedDatabase;

  private constructor(jobsDir: string, opened: OpenedDatabase) {
    this.jobsDir = jobsDir;
    this.opened = opened;
  }

  /** The store of a jobs folder, creating the folder if needed (for commands that run jobs). */
  static async open(jobsDir: string): Promise<JobStore> {
    const dir = resolve(jobsDir);
    makeJobsDir(dir);
    return new JobStore(dir, await openDatabase(join(dir, "longhaul.db")));
  }

  /** The store of a jobs folder that must exist already: for commands that only read jobs. */
  static async openExisting(jobsDir: string): Promise<JobStore> {
    const dir = resolve(jobsDir);
    checkJobsDir(dir);
    // A folder with neither an index nor a job has nothing to read; opening would make an index.
    if (!existsSync(join(dir, "longhaul.db")) && jobFolders(dir).length === 0)
      throw new UserError(`no jobs in ${dir}; run one with: longhaul run --agent oracle`);
    return new JobStore(dir, await openDatabase(join(dir, "longhaul.db")));
  }

  async close(): Promise<void> {
    await this.opened.close();
  }

  /** The folder of a job; a name that could leave the jobs folder is a UserError. */
  jobDir(jobId: string): string {
    return join(this.jobsDir, checkJobName(jobId));
  }

  trialDir(jobId: string, trialId: string): string {
    return join(this.jobDir(jobId), trialId);
  }

  /** The job's run lock (see job-lock.ts): one process runs a job at a time. */
  lockJob(jobId: string): JobLock {
    return lockJob(this.jobDir(jobId), jobId);
  }

  hasJob(jobId: string): boolean {
    return existsSync(join(this.jobDir(jobId), "config.json"));
  }

  async createJob(config: JobConfig): Promise<void> {
    const dir = this.jobDir(config.job_id);
    if (this.hasJob(config.job_id)) {
      throw new UserError(
        `job ${config.job_id} already exists in ${this.jobsDir}; use --resume to continue it`,
      );
    }
    const path = join(dir, "config.json");
    await storeWrite(path, `job ${config.job_id}`, () => {
      mkdirSync(dir, { recursive: true });
      writeJsonAtomic(path, config);
      return this.upsertJobRow(config, false);
    });
  }

  loadJobConfig(jobId: string): JobConfig {
    const path = join(this.jobDir(jobId), "config.json");
    if (!existsSync(path)) throw new UserError(`no job named ${jobId} in ${this.jobsDir}`);
    return parseJobConfig(path, readUserText(path));
  }

  /**
   * Records in a job's config.json (and the index's copy) the queue it runs on, as `queue_url`:
   * the one field of it that may change between runs of the job (a resume may use another Redis
   * host). `url` must already have its password masked: the file is no place for secrets.
   */
  async recordQueueUrl(jobId: string, url: string): Promise<void> {
    const config = this.loadJobConfig(jobId);
    if (config.queue_url === url) return;
    const updated: JobConfig = { ...config, queue_url: url };
    const path = join(this.jobDir(jobId), "config.json");
    await storeWrite(path, `job ${jobId}`, async () => {
      writeJsonAtomic(path, updated);
      await this.opened.db
        .updateTable("jobs")
        .set({ config_json: JSON.stringify(updated) })
        .where("id", "=", jobId)
        .execute();
    });
  }

  /** The job's index row, (re)marked running: for a resumed job whose index may have been lost. */
  async ensureJobRow(config: JobConfig): Promise<void> {
    await this.upsertJobRow(config, true);
  }

  private async upsertJobRow(config: JobConfig, markRunning: boolean): Promise<void> {
    const now = new Date().toISOString();
    await this.opened.db
      .insertInto("jobs")
      .values({
        id: config.job_id,
        created_at: config.created_at,
        updated_at: now,
        status: "running",
        config_json: JSON.stringify(config),
      })
      .onConflict((oc) =>
        markRunning
          ? oc.column("id").doUpdateSet({ status: "running", updated_at: now })
          : oc.column("id").doNothing(),
      )
      .execute();
  }

  async setJobStatus(jobId: string, status: JobStatus): Promise<void> {
    await this.opened.db
      .updateTable("jobs")
      .set({ status, updated_at: new Date().toISOString() })
      .where("id", "=", jobId)
      .execute();
  }

  /** The job's summary, with Harbor's JobResult fields added when it has the shape `run` writes. */
  writeJobResult(jobId: string, summary: unknown): void {
    const harbor = harborJobFields(jobId, this.loadJobConfig(jobId).created_at, summary);
    const body = harbor === null ? summary : { ...(summary as Record<string, unknown>), ...harbor };
    const path = join(this.jobDir(jobId), "result.json");
    try {
      writeJsonAtomic(path, body);
    } catch (e) {
      throw storeWriteError(e, path, `the summary of job ${jobId}`);
    }
  }

  /**
   * Records a finished trial: the file first (atomically), then the index. Idempotent. The file
   * also carries Harbor's TrialResult fields so Harbor's tools read it (see harbor-fields.ts).
   */
  async recordTrial(result: TrialResult): Promise<void> {
    const dir = this.trialDir(result.job_id, result.trial_id);
    const path = join(dir, "result.json");
    const what = `trial ${result.trial_id} of job ${result.job_id}`;
    await storeWrite(path, what, () => {
      mkdirSync(dir, { recursive: true });
      writeJsonAtomic(path, this.fileJson(result));
    });
    await storeWrite(join(this.jobsDir, "longhaul.db"), `${what} in the index`, () =>
      this.indexTrial(result),
    );
  }

  /** What result.json holds: longhaul's result and Harbor's fields (the index keeps the same). */
  private fileJson(r: TrialResult): Record<string, unknown> {
    return { ...r, ...harborTrialFields(r, this.trialDir(r.job_id, r.trial_id)) };
  }

  private async indexTrial(r: TrialResult): Promise<void> {
    const row = {
      trial_id: r.trial_id,
      job_id: r.job_id,
      task_name: r.task.name,
      task_checksum: r.task.checksum,
      category: r.task.category,
      agent: r.agent,
      model: r.model,
      attempt: r.attempt,
      seed: r.seed,
      outcome: r.outcome,
      reward: r.reward,
      self_terminated: r.self_terminated ? 1 : 0,
      started_at: r.timing.started_at,
      finished_at: r.timing.finished_at,
      total_sec: r.timing.total_sec,
      cost_usd: r.usage.cost_usd,
      result_json: JSON.stringify(this.fileJson(r)),
    };
    await this.opened.db
      .insertInto("trials")
      .values(row)
      .onConflict((oc) => oc.columns(["job_id", "trial_id"]).doUpdateSet(row))
      .execute();
  }

  /**
   * The trials of a job that are done, reconciling files and index: a result.json without a row
   * (killed between the two writes) is indexed; a planned trial recorded as infra_error is
   * removed, to run again; a row without a result.json (its folder was
   * removed to run the trial again) is dropped, so an interrupted re-run never reports the old
   * result; a folder of a planned trial without result.json is a trial that never finished, and
   * is removed so that it runs again from scratch. Other folders without a result (the job's
   * image build logs, anything the user keeps there) are not trials and are left alone.
   */
  async reconcile(jobId: string, planned: ReadonlySet<string>): Promise<Set<string>> {
    const dir = this.jobDir(jobId);
    const done = new Set<string>();
    if (!existsSync(dir)) return done;
    const indexed = new Set(
      (
        await this.opened.db.selectFrom("trials").select("trial_id").where("job_id", "=", jobId).execute()
      ).map((r) => r.trial_id),
    );
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const resultPath = join(dir, entry.name, "result.json");
      if (!existsSync(resultPath)) {
        if (planned.has(entry.name)) rmSync(join(dir, entry.name), { recursive: true, force: true });
        continue;
      }
      const result = parseTrialFile(resultPath);
      if (result.trial_id !== entry.name || result.job_id !== jobId) {
        // A result copied from another trial: trusting it would re-run (and overwrite) this one.
        throw corruptTrial(
          resultPath,
          `it holds trial ${result.trial_id} of job ${result.job_id}, but its folder is trial ${entry.name} of job ${jobId}`,
        );
      }
      // An infrastructure failure is no result of the agent's: the trial runs again, on a
      // machine that may since have been fixed (a full disk, a missing image, a down upstream).
      if (result.outcome === "infra_error" && planned.has(entry.name)) {
        rmSync(join(dir, entry.name), { recursive: true, force: true });
        continue;
      }
      if (!indexed.has(result.trial_id)) await this.indexTrial(result);
      done.add(result.trial_id);
    }
    const gone = [...indexed].filter((id) => !done.has(id));
    // In slices: one statement binding every id of a large job would pass SQLite's variable limit.
    for (let i = 0; i < gone.length; i += 500) {
      await this.opened.db
        .deleteFrom("trials")
        .where("job_id", "=", jobId)
        .where("trial_id", "in", gone.slice(i, i + 500))
        .execute();
    }
    return done;
  }

  /** Trial folders of a job holding a result.json: what the index should hold, read from disk. */
  finishedTrialFiles(jobId: string): number {
    const dir = this.jobDir(jobId);
    if (!existsSync(dir)) return 0;
    return readdirSync(dir, { withFileTypes: true }).filter(
      (e) => e.isDirectory() && existsSync(join(dir, e.name, "result.json")),
    ).length;
  }

  /** Job folders (with a config.json) on disk, whether or not the index knows them. */
  jobFoldersOnDisk(): string[] {
    return jobFolders(this.jobsDir);
  }

  async listTrials(jobId: string): Promise<TrialResult[]> {
    const rows = await this.opened.db
      .selectFrom("trials")
      .select("result_json")
      .where("job_id", "=", jobId)
      .orderBy("task_name")
      .orderBy("agent")
      .orderBy("model")
      .orderBy("attempt")
      .execute();
    return rows.map((r) => trialResultSchema.parse(JSON.parse(r.result_json)));
  }

  /** Each task checksum the job's recorded trials ran on, with how many ran on it. */
  async taskVersions(jobId: string): Promise<{ task_name: string; task_checksum: string; n: number }[]> {
    const rows = await this.opened.db
      .selectFrom("trials")
      .select((eb) => ["task_name", "task_checksum", eb.fn.countAll<number>().as("n")])
      .where("job_id", "=", jobId)
      .groupBy(["task_name", "task_checksum"])
      .execute();
    return rows.map((r) => ({ ...r, n: Number(r.n) }));
  }

  async countTrials(jobId: string): Promise<number> {
    const row = await this.opened.db
      .selectFrom("trials")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("job_id", "=", jobId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async listJobs(): Promise<{ id: string; status: string; created_at: string; trials: number }[]> {
    const rows = await this.opened.db
      .selectFrom("jobs")
      .leftJoin("trials", "trials.job_id", "jobs.id")
      .select((eb) => [
        "jobs.id",
        "jobs.status",
        "jobs.created_at",
        eb.fn.count<number>("trials.trial_id").as("trials"),
      ])
      .groupBy("jobs.id")
      .orderBy("jobs.created_at", "desc")
      .execute();
    return Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        status: await this.liveStatus(r.id, r.status),
        created_at: r.created_at,
        trials: Number(r.trials),
      })),
    );
  }

  /**
   * The job's status as it stands: `running` only while a process runs it (see job-status.ts),
   * or null when the index does not know the job.
   */
  async jobStatus(jobId: string): Promise<JobStatus | null> {
    const recorded = await this.recordedStatus(jobId);
    return recorded === undefined ? null : ((await this.liveStatus(jobId, recorded)) as JobStatus);
  }

  private liveStatus(jobId: string, recorded: string): Promise<string> {
    return liveJobStatus(this.jobsDir, jobId, recorded, () => this.recordedStatus(jobId));
  }

  private async recordedStatus(jobId: string): Promise<string | undefined> {
    const row = await this.opened.db
      .selectFrom("jobs")
      .select("status")
      .where("id", "=", jobId)
      .executeTakeFirst();
    return row?.status;
  }

  /** The newest job, for commands given no job id. */
  async latestJobId(): Promise<string | null> {
    const jobs = await this.listJobs();
    return jobs[0]?.id ?? null;
  }
}

/** The folders of a jobs dir that hold a job (a config.json), sorted. */
function jobFolders(jobsDir: string): string[] {
  return readdirSync(jobsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(jobsDir, e.name, "config.json")))
    .map((e) => e.name)
    .sort();
}
