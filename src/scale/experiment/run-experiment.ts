import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pLimit from "p-limit";
import { THRESHOLDS } from "../../analysis/summary-types.js";
import {
  allOrStop,
  checkOutFolder,
  linkedController,
  newJobId,
  type TrialResult,
  UserError,
} from "../../core/index.js";
import { type JobOutcome, type ProgressSink, runJob } from "../../runner/index.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import type { JobConfig, JobStore } from "../../store/index.js";
import { loadTask } from "../../task/load.js";
import type { Task } from "../../task/types.js";
import type { Proposer } from "../plan/proposer.js";
import { passes } from "../target/evaluate-target.js";
import { buildLineages, type PlannedNode } from "./build-lineages.js";
import {
  type Experiment,
  type ExperimentCell,
  type ExperimentLineage,
  type ExperimentTrial,
  experimentSchema,
} from "./experiment-schema.js";
import { renderExperimentHtml } from "./render-experiment.js";
import { continuedJob } from "./resume-job.js";
import { countTrial } from "./trajectory-counts.js";
import type { Variant } from "./variants.js";

export interface ExperimentOptions {
  taskDirs: readonly string[];
  agent: string;
  model: string | null;
  agentOptions: Record<string, string>;
  attempts: number;
  depths: readonly number[];
  variants: readonly Variant[];
  seed: number;
  outDir: string;
  stepsPerLevel: number;
  repairs: number;
  /** The verifier's oracle trials while building children (check d). */
  verifierTrials: boolean;
  provider: SandboxProvider;
  sandbox: string;
  store: JobStore;
  jobId?: string;
  /** Continue job `jobId` (its finished trials are kept) instead of starting it. */
  resume?: boolean;
  concurrency: number;
  timeoutMultiplier: number;
  retries: number;
  proposer?: Proposer;
  log: (line: string) => void;
  progress?: ProgressSink;
  signal?: AbortSignal;
}

export interface ExperimentRun {
  experiment: Experiment;
  config: JobConfig;
  outcome: JobOutcome;
}

export const EXPERIMENT_JSON = "experiment.json";
export const EXPERIMENT_HTML = "experiment.html";

/**
 * An experiment: for each task, the lineages its variants need (built or reused under --out), then
 * one job in the normal store with the agent on every root (depth 0) and every chosen child, then
 * success and mean R per variant and depth, written as experiment.json and experiment.html.
 */
export async function runExperiment(o: ExperimentOptions): Promise<ExperimentRun> {
  const outDir = resolve(o.outDir);
  checkOutFolder(outDir, "--out");
  const roots: Task[] = [];
  for (const dir of o.taskDirs) roots.push(await loadTask(resolve(dir)));
  const names = roots.map((t) => t.name);
  const clash = names.find((n, i) => names.indexOf(n) !== i);
  if (clash !== undefined)
    throw new UserError(`two tasks are named ${clash}; an experiment needs distinct names`);
  // Made once the tasks are known good: a refused experiment leaves no empty folder behind.
  mkdirSync(outDir, { recursive: true });

  const lineages: ExperimentLineage[] = [];
  const planned: (PlannedNode & { task: string })[] = [];
  // Every task's lineages share one limit: `-n` lineages are built at once, as `-n` trials run.
  const limit = pLimit(o.concurrency);
  const { stop, release } = linkedController(o.signal);
  const builtByTask = await allOrStop(
    roots.map((root) =>
      buildLineages({
        taskDir: root.dir,
        task: root.name,
        variants: o.variants,
        depths: o.depths,
        outDir,
        seed: o.seed,
        stepsPerLevel: o.stepsPerLevel,
        repairs: o.repairs,
        trials: o.verifierTrials,
        timeoutMultiplier: o.timeoutMultiplier,
        provider: o.provider,
        log: o.log,
        limit,
        signal: stop.signal,
        ...(o.proposer === undefined ? {} : { proposer: o.proposer }),
      }),
    ),
    stop,
  ).finally(release);
  builtByTask.forEach((built, i) => {
    const name = roots[i]?.name ?? "";
    lineages.push(...built.lineages);
    planned.push(...built.nodes.map((n) => ({ ...n, task: name })));
  });

  const children = await Promise.all(planned.map((n) => loadTask(n.dir)));
  const jobTasks = [...(o.depths.includes(0) ? roots : []), ...children];
  if (jobTasks.length === 0) throw new UserError("nothing to run: no root (depth 0) and no approved child");
  const wanted: JobConfig = {
    schema_version: 1,
    job_id: o.jobId ?? newJobId(),
    created_at: new Date().toISOString(),
    tasks: jobTasks.map((t) => ({ name: t.name, path: t.dir, checksum: t.checksum })),
    agents: [o.agent],
    models: [o.model],
    attempts: o.attempts,
    concurrency: o.concurrency,
    timeout_multiplier: o.timeoutMultiplier,
    retries: o.retries,
    seed: o.seed,
    sandbox: o.sandbox,
    agent_options: o.agentOptions,
  };
  const config = o.resume === true ? continuedJob(o.store, wanted) : wanted;
  o.log(`job ${config.job_id}: ${jobTasks.length} tasks × ${o.attempts} attempt(s) of ${o.agent}`);
  const outcome = await runJob({
    store: o.store,
    config,
    tasks: jobTasks,
    provider: o.provider,
    resume: o.resume === true,
    ...(o.progress === undefined ? {} : { progress: o.progress }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });

  const trials = outcome.trials.flatMap((r) => {
    const where = placeOf(r.task.name, roots, planned, o.variants);
    return where === null ? [] : [trialRow(r, where, o.store.trialDir(r.job_id, r.trial_id))];
  });
  const experiment = experimentSchema.parse({
    format: "longhaul-res-experiment",
    version: 1,
    created_at: config.created_at,
    agent: o.agent,
    model: o.model,
    attempts: o.attempts,
    depths: [...o.depths],
    variants: [...o.variants],
    seed: o.seed,
    steps_per_level: o.stepsPerLevel,
    threshold: THRESHOLDS.pass,
    tasks: roots.map((t) => ({ name: t.name, path: t.dir })),
    job: { id: config.job_id, jobs_dir: o.store.jobsDir },
    lineages,
    cells: cells(o.variants, o.depths, names, planned, trials),
    trials,
  } satisfies Experiment);
  writeFileSync(join(outDir, EXPERIMENT_JSON), `${JSON.stringify(experiment, null, 2)}\n`);
  writeFileSync(join(outDir, EXPERIMENT_HTML), renderExperimentHtml(experiment));
  return { experiment, config, outcome };
}

interface Place {
  task: string;
  depth: number;
  variants: Variant[];
}

/** Which root, depth and variants a job task stands for (a root: every variant at depth 0). */
function placeOf(
  name: string,
  roots: readonly Task[],
  planned: readonly (PlannedNode & { task: string })[],
  variants: readonly Variant[],
): Place | null {
  if (roots.some((t) => t.name === name)) return { task: name, depth: 0, variants: [...variants] };
  const node = planned.find((n) => n.id === name);
  return node === undefined ? null : { task: node.task, depth: node.depth, variants: [node.variant] };
}

function trialRow(r: TrialResult, where: Place, trialDir: string): ExperimentTrial {
  const counts = countTrial(trialDir, r.usage.turns);
  return {
    trial_id: r.trial_id,
    node: r.task.name,
    task: where.task,
    depth: where.depth,
    variants: where.variants,
    attempt: r.attempt,
    outcome: r.outcome,
    reward: r.reward,
    passed: passes(r.reward),
    turns: counts.turns,
    tool_calls: counts.toolCalls,
    agent_sec: r.timing.agent_sec,
    input_tokens: r.usage.input_tokens,
    output_tokens: r.usage.output_tokens,
  };
}

function mean(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 10000) / 10000;
}

/** Success, mean R, turns and tool calls per variant and depth; infrastructure failures left out. */
export function cells(
  variants: readonly Variant[],
  depths: readonly number[],
  tasks: readonly string[],
  planned: readonly (PlannedNode & { task: string })[],
  trials: readonly ExperimentTrial[],
): ExperimentCell[] {
  return variants.flatMap((variant) =>
    depths.map((depth) => {
      const here = trials.filter(
        (t) => t.depth === depth && t.variants.includes(variant) && t.outcome !== "infra_error",
      );
      const passed = here.filter((t) => t.passed).length;
      const withCalls = here.flatMap((t) => (t.tool_calls === null ? [] : [t.tool_calls]));
      return {
        variant,
        depth,
        n: here.length,
        passes: passed,
        success_rate: here.length === 0 ? null : Math.round((passed / here.length) * 10000) / 10000,
        mean_reward: mean(here.map((t) => t.reward ?? 0)),
        mean_turns: mean(here.map((t) => t.turns)),
        mean_tool_calls: mean(withCalls),
        missing:
          depth === 0
            ? []
            : tasks.filter(
                (t) => !planned.some((p) => p.task === t && p.variant === variant && p.depth === depth),
              ),
      };
    }),
  );
}
