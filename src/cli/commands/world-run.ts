import { resolve } from "node:path";
import type { Command } from "commander";
import { type RepeatabilityTable, type SeedStat, worldRepeatability } from "../../analysis/index.js";
import { UserError } from "../../core/index.js";
import { alignTable } from "../../report/format.js";
import { buildJobConfig, createProgress, jobSummary, MAX_TRIAL_SEED, runJob } from "../../runner/index.js";
import { getSandboxProvider } from "../../sandbox/registry.js";
import { JobStore } from "../../store/index.js";
import { loadTaskSet } from "../../task/index.js";
import { getTeamAgent } from "../../world/team/registry.js";
import {
  checkTeamForModifiers,
  parseWorldModifiers,
  WORLD_MODIFIERS_OPTION,
} from "../../world/trial/modifiers.js";
import { registerWorldKinds } from "../../world/trial/register.js";
import { collect, parseKeyValues, positiveInt, writeJson } from "../options.js";
import { terminalSafe } from "../results-table.js";

interface WorldRunOpts {
  team: string;
  model?: string[];
  baseUrl?: string;
  modifier?: string[];
  seeds: string;
  job?: string;
  jobsDir: string;
  concurrency: number;
  agentOpt?: string[];
  json?: boolean;
}

/**
 * `longhaul world run`: a team plays world tasks once per seed, as one job of the runner (the
 * team is the job's agent, the modifiers its `world_modifiers` option, one attempt per seed),
 * then the repeatability table: SR and PSR per seed, their mean and spread, per task and overall.
 */
export function registerWorldRunCommand(world: Command): void {
  world
    .command("run")
    .description("a team plays world tasks once per seed; prints SR and PSR per seed, their mean and spread")
    .argument("<tasks...>", "world task files or folders of them")
    .requiredOption("--team <name>", "team agent (oracle, scripted, nop, random, llm, …)")
    .option("-m, --model <provider:model>", "model for a team that calls one", collect)
    .option("--base-url <url>", "base URL for openai-compatible models")
    .option("--modifier <m>", "world modifier, e.g. no-comm or round-budget=40 (repeatable)", collect)
    .option("--seeds <list>", "trial seeds, one attempt each (comma-separated)", "1")
    .option("--job <name>", "job name (default: a timestamped id)")
    .option("--jobs-dir <dir>", "where jobs are stored", "jobs")
    .option("-n, --concurrency <n>", "trials run at once", positiveInt("-n"), 1)
    .option("--agent-opt <key=value>", "other option passed to the team (repeatable)", collect)
    .option("--json", "print one JSON document: the job, the table and every trial")
    .action(async (paths: string[], opts: WorldRunOpts) => {
      await worldRun(paths, opts);
    });
}

export function parseSeeds(text: string): number[] {
  const seeds = text.split(",").map((s) => s.trim());
  if (seeds.some((s) => !/^\d+$/.test(s) || !Number.isSafeInteger(Number(s))))
    throw new UserError(`--seeds: expected non-negative whole numbers separated by commas, got "${text}"`);
  // The engine's generator takes 32 bits: 2^32 + 1 would replay seed 1 as if it were another.
  const big = seeds.find((s) => Number(s) > MAX_TRIAL_SEED);
  if (big !== undefined) throw new UserError(`--seeds: at most ${MAX_TRIAL_SEED} (32 bits), got ${big}`);
  return seeds.map(Number);
}

async function worldRun(paths: string[], opts: WorldRunOpts): Promise<void> {
  // World tasks (YAML) load and run as tasks of their own kind (other world commands need not).
  registerWorldKinds();
  // A team name is checked against the team agents before the runner's agent registry, which
  // would list the terminal agents as the known ones.
  getTeamAgent(opts.team);
  const seeds = parseSeeds(opts.seeds);
  const modifiers = (opts.modifier ?? []).join(",");
  // Checked here too (buildJobConfig checks it as the world trial kind's option), for a clear error
  // before any task is loaded.
  const mods = parseWorldModifiers(modifiers);
  checkTeamForModifiers(opts.team, mods);
  const labels = mods.map((m) => m.label);
  const extra = parseKeyValues(opts.agentOpt ?? []);
  if (extra[WORLD_MODIFIERS_OPTION] !== undefined)
    throw new UserError(`give modifiers with --modifier, not --agent-opt ${WORLD_MODIFIERS_OPTION}=…`);
  const { tasks, skipped } = await loadTaskSet(paths.map((p) => resolve(p)));
  const broken = skipped[0];
  if (broken !== undefined) throw broken.error;
  const notWorld = tasks.find((t) => t.kind !== "world");
  if (notWorld !== undefined)
    throw new UserError(`${notWorld.dir}: not a world task (world run plays world tasks)`);
  if (tasks.length === 0) throw new UserError(`no world tasks in ${paths.join(", ")}`);
  const config = buildJobConfig({
    tasks,
    agents: [opts.team],
    models: opts.model ?? [],
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    agentOptions: {
      ...extra,
      ...(labels.length === 0 ? {} : { [WORLD_MODIFIERS_OPTION]: labels.join(",") }),
    },
    attemptSeeds: seeds,
    concurrency: opts.concurrency,
    ...(opts.job === undefined ? {} : { jobId: opts.job }),
  });
  const store = await JobStore.open(opts.jobsDir);
  try {
    // World trials need no sandbox: the provider is never started.
    const outcome = await runJob({
      store,
      config,
      tasks,
      provider: getSandboxProvider(config.sandbox),
      resume: false,
      progress: createProgress(),
    });
    store.writeJobResult(config.job_id, jobSummary(config, outcome.trials, outcome.interrupted));
    const table = worldRepeatability(outcome.trials);
    if (opts.json) {
      writeJson({
        job_id: outcome.jobId,
        jobs_dir: store.jobsDir,
        team: opts.team,
        model: opts.model?.[0] ?? null,
        modifiers: labels,
        interrupted: outcome.interrupted,
        seeds: table.seeds,
        rows: table.rows.map((r) => ({ task: r.task, per_seed: r.perSeed, sr: r.sr, psr: r.psr })),
        trials: outcome.trials.map((t) => ({
          trial_id: t.trial_id,
          task: t.task.name,
          attempt: t.attempt,
          seed: t.seed,
          outcome: t.outcome,
          success: t.world?.success ?? null,
          psr: t.reward,
          rounds: t.world?.rounds ?? null,
          error: t.error?.message ?? null,
        })),
      });
    } else {
      process.stdout.write(`job ${outcome.jobId} (${store.jobDir(outcome.jobId)})\n`);
      process.stdout.write(
        `team ${terminalSafe(opts.team)}; modifiers: ${labels.length === 0 ? "none" : labels.join(", ")}\n\n`,
      );
      process.stdout.write(`${renderRepeatability(table)}\n`);
      const failed = outcome.trials.filter((t) => t.outcome !== "completed");
      for (const t of failed)
        process.stdout.write(
          `\n${t.trial_id}: ${t.outcome}${t.error ? `: ${terminalSafe(t.error.message)}` : ""}`,
        );
      if (failed.length > 0) process.stdout.write("\n");
    }
    if (outcome.interrupted) process.exitCode = 130;
  } finally {
    await store.close();
  }
}

/** The repeatability table as text: a cell per seed is `SR / PSR`, then mean, min–max and sd of each. */
export function renderRepeatability(table: RepeatabilityTable): string {
  const header = [
    "task",
    ...table.seeds.map((s) => (s.seed === null ? `attempt ${s.attempt}` : `seed ${s.seed}`)),
    "SR mean",
    "SR min–max",
    "SR sd",
    "PSR mean",
    "PSR min–max",
    "PSR sd",
  ];
  const rows = table.rows.map((r) => [
    terminalSafe(r.task),
    ...r.perSeed.map((c) => (c === null ? "-" : `${fix(c.sr)} / ${fix(c.psr)}`)),
    ...statCells(r.sr),
    ...statCells(r.psr),
  ]);
  return `cells: SR / PSR\n${alignTable(header, rows)}`;
}

function statCells(s: SeedStat | null): string[] {
  if (s === null) return ["-", "-", "-"];
  return [fix(s.mean), `${fix(s.min)}–${fix(s.max)}`, s.sd === null ? "-" : fix(s.sd)];
}

function fix(x: number): string {
  return x.toFixed(2);
}
