import { resolve } from "node:path";
import type { Command } from "commander";
import { checkJobName, UserError } from "../../core/index.js";
import { DEFAULT_MAX_RESULT_MIB, MAX_RESULT_MIB } from "../../distributed/pack.js";
import { redactUrl } from "../../distributed/redis-url.js";
// The queue's client (bullmq, ioredis) loads only for --queue: it takes most of a second.
import {
  MAX_PRIORITY,
  parseRateLimit,
  RATE_LIMIT_USAGE,
  type RateLimit,
} from "../../distributed/trial-job.js";
import { BUDGET_OPTION_KEYS } from "../../gateway/index.js";
import { maskedPasswordNote } from "../../report/job-lines.js";
import {
  buildJobConfig,
  bundledTasksDir,
  checkJobChoices,
  createProgress,
  jobSummary,
  runJob,
} from "../../runner/index.js";
import { getSandboxProvider } from "../../sandbox/registry.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import { type JobConfig, JobStore } from "../../store/index.js";
import { checkHostTools, loadTaskSet, type SkippedTask, type TaskSet } from "../../task/index.js";
import type { Task } from "../../task/types.js";
import {
  collect,
  nonNegativeInt,
  parseKeyValues,
  positiveInt,
  positiveNumber,
  RUN_LIMITS,
  writeJson,
} from "../options.js";
import { renderCategoryTable, renderGradingErrors, renderRunTable, terminalSafe } from "../results-table.js";
import { resumeCommand } from "./report-jobs.js";
import { refuseJobOptionsOnResume } from "./run-resume.js";

interface RunOptions {
  agent?: string[];
  model?: string[];
  attempts: number;
  n: number;
  job?: string;
  jobsDir: string;
  resume?: boolean;
  json?: boolean;
  timeoutMultiplier: number;
  retries: number;
  seed?: number;
  sandbox: string;
  agentOpt?: string[];
  baseUrl?: string;
  untilTimeout?: boolean;
  queue?: string;
  priority?: number;
  rateLimit?: string[];
  maxResultMib?: number;
  maxTokens?: number;
  maxCost?: number;
  /** -n was given on the command line (with --resume it replaces the job's concurrency). */
  nGiven?: boolean;
}

export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("run agents on tasks (default: the bundled tasks) and record every trial")
    .argument("[paths...]", "task folders or dataset folders (folders of tasks)")
    .option("-a, --agent <name>", "agent to run (repeatable)", collect)
    .option("-m, --model <provider:model>", "model for LLM agents (repeatable)", collect)
    .option(
      "-k, --attempts <n>",
      "attempts per task × agent × model",
      positiveInt("--attempts", RUN_LIMITS.attempts),
      1,
    )
    .option(
      "-n, --concurrency <n>",
      "trials run at once",
      positiveInt("-n/--concurrency", RUN_LIMITS.concurrency),
      1,
    )
    .option("--job <name>", "job name (default: a timestamped id)")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option("--resume", "continue the job (--job, or the newest one): finished trials are kept")
    .option("--json", "print one JSON document with the job id and every trial's outcome")
    .option(
      "--timeout-multiplier <x>",
      "scale every phase timeout",
      positiveNumber("--timeout-multiplier"),
      1,
    )
    .option(
      "--retries <n>",
      "retries of a trial after an infrastructure failure",
      nonNegativeInt("--retries", RUN_LIMITS.retries),
      2,
    )
    .option(
      "--seed <n>",
      "master seed for the hidden stress seeds (default: random, recorded)",
      nonNegativeInt("--seed"),
    )
    .option("--sandbox <name>", "sandbox provider", "bwrap")
    .option("--agent-opt <key=value>", "option passed to the agent (repeatable)", collect)
    .option("--base-url <url>", "base URL for openai-compatible models")
    .option(
      "--max-tokens <n>",
      "per-trial budget of model tokens (input + output), enforced by the model gateway",
      positiveInt("--max-tokens"),
    )
    .option(
      "--max-cost <usd>",
      "per-trial budget of model cost in USD, enforced by the model gateway",
      positiveNumber("--max-cost"),
    )
    .option(
      "--until-timeout",
      "continue-until-timeout mode: a declared completion runs the public checks; if they fail the agent is told and goes on until its budget ends",
    )
    .option(
      "--queue <redis-url>",
      "run the trials on `longhaul worker`s of this Redis queue (docs/distributed.md)",
    )
    .option(
      "--priority <n>",
      "with --queue: queue priority (1 is taken first)",
      positiveInt("--priority", MAX_PRIORITY),
    )
    .option(
      "--max-result-mib <n>",
      `with --queue: a worker's trial folder larger than this is not fetched (the result is recorded without it; default ${DEFAULT_MAX_RESULT_MIB})`,
      positiveInt("--max-result-mib", MAX_RESULT_MIB),
    )
    .option(
      "--rate-limit <model=N/60s>",
      "with --queue: at most N trials of MODEL start per window, over all workers (repeatable)",
      collect,
    )
    .action(async (paths: string[], opts: RunOptions & { concurrency: number }, cmd: Command) => {
      if (opts.queue !== undefined) warnIgnoredWithQueue(cmd);
      if (opts.resume === true) refuseJobOptionsOnResume(paths, cmd);
      const nGiven = cmd.getOptionValueSource("concurrency") === "cli";
      await runCommand(paths, { ...opts, n: opts.concurrency, nGiven });
    });
}

async function runCommand(paths: string[], opts: RunOptions): Promise<void> {
  // Unknown agents, bad agent options, missing models and credentials fail before anything is
  // written, not even the jobs folder's index.
  if (!opts.resume) checkJobChoices(choicesOf(opts));
  // So are a bad --rate-limit and an unknown --sandbox name.
  const rateLimits = parseRateLimits(opts);
  if (!opts.resume && opts.queue === undefined) getSandboxProvider(opts.sandbox);
  const store = await JobStore.open(opts.jobsDir);
  try {
    const resolved = await resolveConfig(store, paths, opts);
    // -n changes how many trials run at once, not what they are: a resumed run may take another.
    const config =
      opts.resume === true && opts.nGiven === true
        ? { ...resolved.config, concurrency: opts.n }
        : resolved.config;
    const loaded = resolved.loaded ?? (await loadTaskSet(config.tasks.map((t) => t.path)));
    const { tasks } = loaded;
    const skipped = mergeSkipped(resolved.skipped, loaded.skipped);
    for (const task of tasks) for (const w of task.warnings) process.stderr.write(`warning: ${w}\n`);
    for (const s of skipped) process.stderr.write(`skipped task ${s.path}: ${s.reason}\n`);
    if (opts.resume) warnChangedTasks(config, tasks);

    // A password given in --queue is never printed: the command names the queue with it masked.
    const resume = resumeCommand(
      config.job_id,
      opts.jobsDir,
      opts.queue === undefined ? undefined : redactUrl(opts.queue),
    );
    const controller = new AbortController();
    let signals = 0;
    const onSignal = (sig: NodeJS.Signals): void => {
      signals += 1;
      if (signals > 1) process.exit(130);
      process.stderr.write(
        `\n${sig}: stopping; finished trials are kept. Continue with: ${resume}${maskedPasswordNote(resume)}\n`,
      );
      controller.abort(new Error(sig));
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    const common = {
      store,
      config,
      tasks,
      resume: opts.resume === true,
      progress: createProgress(),
      signal: controller.signal,
      skipped,
    };
    // With --queue the trials run on the workers' machines: this one needs no sandbox.
    const outcome =
      opts.queue !== undefined
        ? await (await import("../../distributed/coordinator.js")).runDistributed({
            ...common,
            redisUrl: opts.queue,
            rateLimits,
            ...(opts.priority === undefined ? {} : { priority: opts.priority }),
            ...(opts.maxResultMib === undefined ? {} : { maxResultMib: opts.maxResultMib }),
          })
        : await runJob({ ...common, provider: await localProvider(config, tasks) });
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    const notRun = {
      skipped_tasks: skipped.map((s) => ({ path: s.path, reason: s.reason })),
      failed_images: outcome.failedImages,
    };
    store.writeJobResult(config.job_id, {
      ...jobSummary(config, outcome.trials, outcome.interrupted),
      ...notRun,
    });

    if (opts.json) {
      writeJson({
        job_id: outcome.jobId,
        jobs_dir: store.jobsDir,
        interrupted: outcome.interrupted,
        ...notRun,
        trials: outcome.trials.map((t) => ({
          trial_id: t.trial_id,
          task: t.task.name,
          category: t.task.category,
          agent: t.agent,
          model: t.model,
          attempt: t.attempt,
          outcome: t.outcome,
          reward: t.reward,
          // A world trial's success condition (SR); its reward is the PSR.
          ...(t.world === null ? {} : { success: t.world.success }),
          error: t.error?.message ?? null,
        })),
      });
    } else {
      process.stdout.write(`job ${outcome.jobId} (${store.jobDir(outcome.jobId)})\n\n`);
      process.stdout.write(`${renderRunTable(outcome.trials)}\n\nper category\n`);
      process.stdout.write(`${renderCategoryTable(outcome.trials)}\n`);
      const broken = renderGradingErrors(outcome.trials);
      if (broken !== "") process.stdout.write(`\n${broken}\n`);
      const lost = renderNotRun(notRun);
      if (lost !== "") process.stdout.write(`\n${lost}\n`);
    }
    // Trials the infrastructure failed are no result: the job is not done, and a script must not
    // take it for a clean run (exit 0). Resume runs them again.
    const infra = outcome.trials.filter((t) => t.outcome === "infra_error").length;
    if (infra > 0 && !outcome.interrupted) {
      process.stderr.write(
        `${infra} trial(s) failed on the infrastructure (infra_error, not scored); run them again with: ${resume}${maskedPasswordNote(resume)}\n`,
      );
    }
    if (outcome.interrupted) process.exitCode = 130;
    else if (skipped.length > 0 || outcome.failedImages.length > 0) process.exitCode = EXIT_TASKS_SKIPPED;
    else if (infra > 0) process.exitCode = EXIT_INFRA_TRIALS;
  } finally {
    await store.close();
  }
}

async function localProvider(config: JobConfig, tasks: Task[]): Promise<SandboxProvider> {
  for (const task of tasks) checkHostTools(task);
  const provider = getSandboxProvider(config.sandbox);
  await provider.check();
  return provider;
}

function parseRateLimits(opts: RunOptions): Map<string, RateLimit> {
  const out = new Map<string, RateLimit>();
  if ((opts.rateLimit ?? []).length > 0 && opts.queue === undefined)
    throw new UserError("--rate-limit needs --queue (limits are shared by the queue's workers)");
  if (opts.priority !== undefined && opts.queue === undefined)
    throw new UserError("--priority needs --queue");
  if (opts.maxResultMib !== undefined && opts.queue === undefined)
    throw new UserError("--max-result-mib needs --queue");
  for (const text of opts.rateLimit ?? []) {
    const parsed = parseRateLimit(text);
    if (parsed === null) throw new UserError(`--rate-limit ${text}: ${RATE_LIMIT_USAGE}`);
    out.set(parsed.model, parsed.limit);
  }
  return out;
}

/** The job's config still records them, but with --queue each worker's own options decide. */
function warnIgnoredWithQueue(cmd: Command): void {
  for (const [key, flag] of [
    ["sandbox", "--sandbox"],
    ["concurrency", "-n/--concurrency"],
  ] as const) {
    if (cmd.getOptionValueSource(key) === "cli")
      process.stderr.write(`warning: ${flag} is ignored with --queue: each worker's own ${flag} decides\n`);
  }
}

/** Exit code of a job that ran, but not every task: some were invalid or had no image (docs/cli.md). */
export const EXIT_TASKS_SKIPPED = 4;

/** Exit code of a job that ran, but some trials failed on the infrastructure (docs/cli.md). */
export const EXIT_INFRA_TRIALS = 3;

function mergeSkipped(a: SkippedTask[], b: SkippedTask[]): SkippedTask[] {
  return [...new Map([...a, ...b].map((s) => [s.path, s])).values()];
}

function renderNotRun(n: {
  skipped_tasks: { path: string; reason: string }[];
  failed_images: { task: string; error: string }[];
}): string {
  const lines: string[] = [];
  if (n.skipped_tasks.length > 0) {
    lines.push(`skipped tasks (${n.skipped_tasks.length}; not run, not scored):`);
    for (const s of n.skipped_tasks) lines.push(`  ${terminalSafe(s.path)}: ${terminalSafe(s.reason)}`);
  }
  if (n.failed_images.length > 0) {
    lines.push(`tasks without an image (${n.failed_images.length}; their trials are infra errors):`);
    for (const f of n.failed_images) lines.push(`  ${terminalSafe(f.task)}: ${terminalSafe(f.error)}`);
  }
  return lines.join("\n");
}

/** Agents, models and their options as the command line gives them. */
export function choicesOf(
  opts: Pick<RunOptions, "agent" | "model" | "agentOpt" | "baseUrl" | "maxTokens" | "maxCost">,
) {
  return {
    agents: opts.agent ?? [],
    models: opts.model ?? [],
    agentOptions: {
      ...parseKeyValues(opts.agentOpt ?? []),
      // Budgets travel with the agent options, so queued trials and --resume keep them.
      ...(opts.maxTokens === undefined ? {} : { [BUDGET_OPTION_KEYS.tokens]: String(opts.maxTokens) }),
      ...(opts.maxCost === undefined ? {} : { [BUDGET_OPTION_KEYS.cost]: String(opts.maxCost) }),
    },
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
  };
}

/** The job's config; for a new job, also its tasks (loaded once, to build the config). */
async function resolveConfig(
  store: JobStore,
  paths: string[],
  opts: RunOptions,
): Promise<{ config: JobConfig; skipped: SkippedTask[]; loaded?: TaskSet }> {
  if (opts.resume) {
    const jobId = opts.job !== undefined ? checkJobName(opts.job) : await store.latestJobId();
    if (jobId === null) throw new UserError(`--resume: no job in ${store.jobsDir}`);
    return { config: await store.loadJobConfig(jobId), skipped: [] };
  }
  // Checked again here (runCommand checked first): a caller of resolveConfig gets the same errors.
  const choices = choicesOf(opts);
  checkJobChoices(choices);
  const roots = paths.length > 0 ? paths.map((p) => resolve(p)) : [bundledTasksDir()];
  const loaded = await loadTaskSet(roots);
  const { tasks, skipped } = loaded;
  const firstSkipped = skipped[0];
  // Nothing to run at all: the one broken task's own error (file, line, field) is the answer.
  if (tasks.length === 0 && skipped.length === 1 && firstSkipped) throw firstSkipped.error;
  if (tasks.length === 0) {
    const why = skipped.map((s) => `\n  ${s.path}: ${s.reason}`).join("");
    throw new UserError(`no tasks to run in ${roots.join(", ")}${why}`);
  }
  const config = buildJobConfig({
    ...choices,
    tasks,
    ...(opts.job === undefined ? {} : { jobId: opts.job }),
    attempts: opts.attempts,
    concurrency: opts.n,
    timeoutMultiplier: opts.timeoutMultiplier,
    retries: opts.retries,
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    sandbox: opts.sandbox,
    untilTimeout: opts.untilTimeout === true,
  });
  return { config, skipped, loaded };
}

/** A task edited since the job started: its remaining trials run on the new version (each trial records its checksum). */
function warnChangedTasks(config: JobConfig, tasks: { name: string; checksum: string }[]): void {
  const now = new Map(tasks.map((t) => [t.name, t.checksum]));
  for (const t of config.tasks) {
    const current = now.get(t.name);
    if (current !== undefined && current !== t.checksum) {
      process.stderr.write(
        `warning: task ${t.name} changed since job ${config.job_id} started (checksum ${t.checksum.slice(0, 12)} → ${current.slice(0, 12)}); remaining trials use the new version\n`,
      );
    }
  }
}
