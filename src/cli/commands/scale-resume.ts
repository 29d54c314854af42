import type { Command } from "commander";
import { resumeSettings } from "../../scale/lineage/settings.js";

/** The options of `scale` a lineage records; `--resume` takes each one the command line leaves out. */
export interface ResumableOpts {
  depth?: number;
  children: number;
  library: string;
  mode: string;
  seed: number;
  steps: number;
  repairs: number;
  trials: boolean;
  proposer: string;
  model?: string;
  targetAgent?: string;
  targetAttempts: number;
  targetModel?: string;
}

/**
 * `scale --resume`: the lineage's own settings for every option not given on the command line,
 * and the root task when TASK is left out. An option that is given and differs is refused later,
 * by the lineage itself (naming the field), so nothing is grown from a mismatch.
 */
export function fillFromLineage<T extends ResumableOpts>(
  cmd: Command,
  out: string,
  opts: T,
): { task: string; opts: T } {
  const s = resumeSettings(out);
  const given = (attribute: string): boolean => cmd.getOptionValueSource(attribute) === "cli";
  const pick = <V>(attribute: string, mine: V, recorded: V): V => (given(attribute) ? mine : recorded);
  const llm = s.proposer.startsWith("llm:") ? s.proposer.slice("llm:".length) : undefined;
  const filled: T = {
    ...opts,
    depth: pick("depth", opts.depth, s.depth),
    children: pick("children", opts.children, s.children),
    library: pick("library", opts.library, s.library),
    mode: pick("mode", opts.mode, s.mode),
    seed: pick("seed", opts.seed, s.seed),
    steps: pick("steps", opts.steps, s.steps),
    repairs: pick("repairs", opts.repairs, s.repairs),
    trials: pick("trials", opts.trials, s.trials),
  };
  if (llm !== undefined && !given("proposer")) {
    filled.proposer = "llm";
    filled.model = pick("model", opts.model, llm);
  }
  if (s.target !== null && !given("targetAgent")) {
    filled.targetAgent = s.target.agent;
    filled.targetAttempts = pick("targetAttempts", opts.targetAttempts, s.target.attempts);
    filled.targetModel = pick("targetModel", opts.targetModel, s.target.model ?? undefined);
  }
  return { task: s.root, opts: filled };
}
