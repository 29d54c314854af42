import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Trajectory, trajectorySchema } from "../agents/llm-loop/trajectory.js";
import { reaches, THRESHOLDS } from "../analysis/summary-types.js";
import { errorMessage, InputError, type TrialResult, UserError } from "../core/index.js";
import { lineageDepth } from "../scale/child/res-json.js";
import { JobStore } from "../store/index.js";
import { taskChecksum } from "../task/index.js";
import { checkOutFile } from "./out-file.js";
import { type SftFormat, type SftMessage, trajectoryToMessages } from "./sft-messages.js";
import { writeLinesAtomic } from "./write-lines.js";

export interface ExportSftOptions {
  jobsDir: string;
  /** Default: the newest job. */
  job?: string;
  /** Default: `<job>-sft-<format>.jsonl` in the current folder. */
  out?: string;
  format: SftFormat;
  /** Lowest R exported; default the Pass@1 threshold. */
  minReward?: number;
  /** Every scored trial, whatever its R. */
  includeFailed?: boolean;
  /** Replace an existing output file. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface SftMetadata {
  job_id: string;
  trial_id: string;
  task: string;
  task_checksum: string;
  agent: string;
  model: string | null;
  attempt: number;
  seed: number;
  outcome: TrialResult["outcome"];
  reward: number;
  passed: boolean;
  /** 0 for a hand-written task, k for a RES child k levels below its root; null when the task folder is gone. */
  lineage_depth: number | null;
  assistant_turns: number;
  tool_calls: number;
}

export interface SftRecord {
  messages: SftMessage[];
  metadata: SftMetadata;
}

export interface ExportSftResult {
  out: string;
  job: string;
  trials: number;
  exported: number;
  /** Trials not exported, by reason. */
  skipped: Record<string, number>;
}

/** Writes the trajectories of a job's resolved trials as chat-format JSONL (docs/export.md). */
export async function exportSft(o: ExportSftOptions): Promise<ExportSftResult> {
  const log = o.log ?? (() => undefined);
  const minReward = o.includeFailed ? 0 : (o.minReward ?? THRESHOLDS.pass);
  // A given --out is checked before anything is read; the default one once the job is known.
  const given = o.out === undefined ? undefined : sftOut(resolve(o.out), o.force === true);
  const store = await JobStore.openExisting(o.jobsDir);
  let job: string;
  let trials: TrialResult[];
  try {
    job = o.job ?? (await newestJob(store));
    store.loadJobConfig(job);
    trials = await store.listTrials(job);
    if (trials.length === 0) {
      const files = store.finishedTrialFiles(job);
      throw new UserError(
        files > 0
          ? `${store.jobsDir}/longhaul.db has no trials of job ${job}, but its folder holds ${files} finished trial(s); re-index with longhaul run --resume --job ${job} --jobs-dir ${store.jobsDir}`
          : `job ${job} has no finished trials yet (${store.jobDir(job)}); nothing to export`,
      );
    }
  } finally {
    await store.close();
  }
  const out = given ?? sftOut(resolve(`${job}-sft-${o.format}.jsonl`), o.force === true);

  const skipped: Record<string, number> = {};
  const skip = (reason: string): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const folders = new Map<string, Promise<string | null>>();
  let exported = 0;
  log(
    `export sft: job ${job}, ${trials.length} trial(s), R ≥ ${minReward}${o.includeFailed ? " (all scored)" : ""}`,
  );
  // Records are written as they are made: a job's trajectories together can outgrow memory.
  async function* records(): AsyncGenerator<string> {
    for (const t of trials) {
      if (t.outcome === "infra_error") skip("infrastructure error");
      else if (t.reward === null) skip("not scored");
      else if (!reaches(t.reward, minReward)) skip(`R below ${minReward}`);
      else {
        const key = `${t.task.path}\0${t.task.checksum}`;
        const folder = folders.get(key) ?? taskFolder(t.task.path, t.task.checksum);
        folders.set(key, folder);
        const record = trialRecord(store.trialDir(job, t.trial_id), t, t.reward, o.format, await folder);
        if (typeof record === "string") {
          skip(record);
          log(`  ${t.trial_id}: skipped (${record})`);
        } else {
          exported++;
          yield JSON.stringify(record, wellFormed);
        }
      }
    }
  }
  await writeLinesAtomic(out, records(), o.force === true);
  return { out, job, trials: trials.length, exported, skipped };
}

/**
 * The file to write: `out`, or the file a symbolic link there points to. The file is written
 * beside its place and renamed over it, so anything there but a regular file (a device such as
 * /dev/stdout, a pipe) is refused: the rename would replace it, not write into it.
 */
function sftOut(out: string, force: boolean): string {
  checkOutFile(out);
  if (!existsSync(out)) return out;
  if (!force) throw new UserError(`${out} exists; pass --force to replace it`);
  if (!statSync(out).isFile()) throw new UserError(`${out}: cannot write (not a regular file)`);
  const target = realpathSync(out);
  checkOutFile(target);
  return target;
}

async function newestJob(store: JobStore): Promise<string> {
  const id = await store.latestJobId();
  if (id === null) throw new UserError(`no jobs in ${store.jobsDir}; name one or run one first`);
  return id;
}

/**
 * The folder of the task a trial ran, or null when it is gone or now holds other files (its
 * checksum differs): its instruction and lineage depth would then not be those of the run.
 */
async function taskFolder(path: string, checksum: string): Promise<string | null> {
  const dir = resolve(path);
  if (!existsSync(dir)) return null;
  try {
    return (await taskChecksum(dir)) === checksum ? dir : null;
  } catch {
    return null;
  }
}

/** One trial's record, or why it has none. `taskDir` is null when the task that ran is gone. */
function trialRecord(
  trialDir: string,
  t: TrialResult,
  reward: number,
  format: SftFormat,
  taskDir: string | null,
): SftRecord | string {
  const file = join(trialDir, "agent", "trajectory.json");
  if (!existsSync(file)) return "no trajectory";
  const converted = trajectoryToMessages(readTrajectory(file), format, () =>
    taskDir === null ? null : instructionOf(taskDir),
  );
  if (!converted.ok) return converted.reason;
  return {
    messages: converted.messages,
    metadata: {
      job_id: t.job_id,
      trial_id: t.trial_id,
      task: t.task.name,
      task_checksum: t.task.checksum,
      agent: t.agent,
      model: t.model,
      attempt: t.attempt,
      seed: t.seed,
      outcome: t.outcome,
      reward,
      passed: reaches(reward, THRESHOLDS.pass),
      lineage_depth: taskDir === null ? null : lineageDepth(taskDir),
      assistant_turns: converted.assistantTurns,
      tool_calls: converted.toolCalls,
    },
  };
}

/**
 * Strings with a lone UTF-16 surrogate (a tool that cut text between the two halves of an emoji)
 * get U+FFFD in its place: JSON.stringify would write it as a `\udXXX` escape that is not a
 * character, and readers that decode to UTF-8 (Python, Arrow, tokenizers) fail on the line.
 */
function wellFormed(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.replace(LONE_SURROGATE, "\uFFFD") : value;
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A trajectory the agent wrote; a damaged one names its file and the first bad field. */
export function readTrajectory(file: string): Trajectory {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(file, undefined, undefined, `not valid JSON (${errorMessage(e)})`);
  }
  const r = trajectorySchema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.join(".") ?? "";
  throw new InputError(
    file,
    undefined,
    field,
    `not an ATIF trajectory: ${field || "(top)"}: ${issue?.message ?? "invalid"}`,
  );
}

function instructionOf(taskDir: string): string | null {
  try {
    return readFileSync(join(taskDir, "instruction.md"), "utf8");
  } catch {
    return null;
  }
}
