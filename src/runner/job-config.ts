import { agentNeedsModel, createAgent } from "../agents/registry.js";
import { checkJobName, freshSeed, newJobId, UserError } from "../core/index.js";
import { budgetFromOptions } from "../gateway/budget.js";
import { checkModelId } from "../models/providers.js";
import { settingsFromOptions } from "../models/settings.js";
import type { JobConfig } from "../store/job-config.js";
import { getTrialKind, listTrialKinds } from "./trial-kinds.js";

/** The largest trial seed: the verifier kit's generator, like longhaul's Rng, takes 32 bits. */
export const MAX_TRIAL_SEED = 4_294_967_295;

/** The choices of a new job; everything but the tasks and agents has a default. */
export interface JobChoices {
  /** The loaded tasks (name, folder, checksum), e.g. from loadTaskSet. */
  tasks: readonly { name: string; dir: string; checksum: string; kind?: string }[];
  /** Agent names from the agent registry (e.g. "oracle"). */
  agents: readonly string[];
  /** `provider:model` ids for agents that drive a model; none: every agent runs without one. */
  models?: readonly string[];
  /** Job name; default a timestamped id. */
  jobId?: string;
  attempts?: number;
  /** Each attempt's trial seed outright (one attempt per seed); the default derives them from `seed`. */
  attemptSeeds?: readonly number[];
  concurrency?: number;
  timeoutMultiplier?: number;
  /** Retries of a trial after an infrastructure failure (default 2). */
  retries?: number;
  /** Master seed of the hidden stress seeds; default a fresh random one (recorded). */
  seed?: number;
  /** Sandbox provider name (default "bwrap"). */
  sandbox?: string;
  /** Options passed to every agent (key=value). */
  agentOptions?: Readonly<Record<string, string>>;
  /** Base URL for openai-compatible models (stored among the agent options as base_url). */
  baseUrl?: string;
  /** Continue-until-timeout mode. */
  untilTimeout?: boolean;
}

/**
 * Refuses what would make every trial of a new job fail, before anything is written: unknown
 * agents or bad agent options, an agent that needs a model without one, a malformed or unknown
 * model id, and (with an LLM agent) a model provider without its API key or base URL.
 */
export function checkJobChoices(
  c: Pick<JobChoices, "agents" | "models" | "agentOptions" | "baseUrl">,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (c.agents.length === 0) throw new UserError("run needs --agent NAME (e.g. --agent oracle)");
  const options = { ...(c.agentOptions ?? {}) };
  const models = c.models ?? [];
  for (const name of c.agents) {
    // A name only another task kind knows (a world team agent) is checked against the tasks later.
    const kinds = listTrialKinds().filter((k) => k.agents().includes(name));
    for (const k of kinds) k.checkOptions?.(options, name);
    if (kinds.length > 0 && !isTerminalAgent(name, options)) {
      if (kinds.some((k) => k.needsModel?.(name) === true) && models.length === 0)
        throw new UserError(`agent ${name} needs a model: pass --model PROVIDER:MODEL (see longhaul models)`);
      continue;
    }
    if (kinds.length === 0) createAgent(name, options);
    if (agentNeedsModel(name) && models.length === 0) {
      throw new UserError(`agent ${name} needs a model: pass --model PROVIDER:MODEL (see longhaul models)`);
    }
  }
  budgetFromOptions(options);
  const callsModel = (n: string): boolean =>
    agentNeedsModel(n) || listTrialKinds().some((k) => k.agents().includes(n) && k.needsModel?.(n) === true);
  const callSettings = c.agents.some(callsModel)
    ? settingsFromOptions({ ...options, ...(c.baseUrl ? { base_url: c.baseUrl } : {}) })
    : undefined;
  for (const model of models) checkModelId(model, callSettings, env);
}

function isTerminalAgent(name: string, options: Record<string, string>): boolean {
  try {
    createAgent(name, options);
    return true;
  } catch {
    return false;
  }
}

/** Every agent must be able to play every task of the job: a terminal agent, or one of the task's kind. */
function checkAgentsFitTasks(c: Pick<JobChoices, "tasks" | "agents" | "agentOptions">): void {
  const options = { ...(c.agentOptions ?? {}) };
  for (const t of c.tasks) {
    const kind = t.kind ?? "terminal";
    for (const name of c.agents) {
      const fits =
        kind === "terminal" ? isTerminalAgent(name, options) : getTrialKind(kind).agents().includes(name);
      if (!fits) {
        const known =
          kind === "terminal"
            ? "a terminal agent (see longhaul run --help)"
            : getTrialKind(kind).agents().join(", ");
        throw new UserError(
          `agent ${name} cannot play ${kind} task ${t.name} (${kind} tasks take: ${known})`,
        );
      }
    }
  }
}

/** A new job's config.json, after checkJobChoices; the defaults are those of `longhaul run`. */
export function buildJobConfig(c: JobChoices, now: Date = new Date()): JobConfig {
  checkJobChoices(c);
  checkAgentsFitTasks(c);
  const agentOptions: Record<string, string> = { ...(c.agentOptions ?? {}) };
  if (c.baseUrl) agentOptions.base_url = c.baseUrl;
  const models = c.models ?? [];
  const seeds = c.attemptSeeds;
  if (seeds !== undefined) {
    if (seeds.length === 0) throw new UserError("seeds: give at least one seed");
    if (seeds.some((s) => !Number.isSafeInteger(s) || s < 0))
      throw new UserError(`seeds: expected non-negative whole numbers, got ${seeds.join(",")}`);
    // The verifier's generator (lh.py's Rng, as longhaul's) takes 32 bits of a seed: 2^32 + 1
    // would give seed 1's hidden cases while passing for another seed.
    const big = seeds.find((s) => s > MAX_TRIAL_SEED);
    if (big !== undefined) throw new UserError(`seeds: at most ${MAX_TRIAL_SEED} (32 bits), got ${big}`);
    if (new Set(seeds).size !== seeds.length) throw new UserError(`seeds: ${seeds.join(",")} repeats a seed`);
    if (c.attempts !== undefined && c.attempts !== seeds.length)
      throw new UserError(`${c.attempts} attempts but ${seeds.length} seeds: one attempt per seed`);
  }
  return {
    schema_version: 1,
    job_id: c.jobId !== undefined ? checkJobName(c.jobId) : newJobId(now),
    created_at: now.toISOString(),
    tasks: c.tasks.map((t) => ({ name: t.name, path: t.dir, checksum: t.checksum })),
    agents: [...c.agents],
    models: models.length > 0 ? [...models] : [null],
    attempts: seeds?.length ?? c.attempts ?? 1,
    concurrency: c.concurrency ?? 1,
    timeout_multiplier: c.timeoutMultiplier ?? 1,
    retries: c.retries ?? 2,
    seed: c.seed ?? freshSeed(),
    ...(seeds === undefined ? {} : { attempt_seeds: [...seeds] }),
    sandbox: c.sandbox ?? "bwrap",
    agent_options: agentOptions,
    until_timeout: c.untilTimeout === true,
  };
}
