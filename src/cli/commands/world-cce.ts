import type { Command } from "commander";
import { UserError, type WorldCce } from "../../core/index.js";
import { type AgentShapley, agentShapley } from "../../world/cce/shapley.js";
import { DEFAULT_CCE_SAMPLES, worldCce } from "../../world/cce/world-cce.js";
import type { RunFile } from "../../world/engine/session.js";
import { runAgentIds } from "../../world/task/merge.js";
import { replayedTaskRun } from "./world-replayed-run.js";

interface CceOpts {
  samples?: string;
  seed?: string;
  shapley?: boolean;
  json?: boolean;
  content?: string;
}

/** `longhaul world cce RUN`: causal contribution of a world-task run file (docs/world.md). */
export function registerWorldCceCommand(world: Command, readRun: (file: string) => RunFile): void {
  world
    .command("cce")
    .description("Trace a world-task run's causal contribution: CCE, PAC, counterfactual and Shapley values")
    .argument("<run>", "run file of a world task (world-run.json)")
    .option(
      "--samples <n>",
      `calls replayed as waits inside and outside the closure (default ${DEFAULT_CCE_SAMPLES}; 0: none)`,
    )
    .option("--seed <n>", "seed of the sampling and of Monte Carlo Shapley values (default: the run's)")
    .option("--shapley", "also compute each agent's Shapley value by masking agents")
    .option("--json", "print JSON")
    .option("--content <dir>", "load a content pack folder instead of generating one from the run's seed")
    .action((file: string, opts: CceOpts) => {
      const run = readRun(file);
      const { base, spec, session: s, verdict, prior } = replayedTaskRun(file, run, opts.content, "verify");
      const samples = count(opts.samples, "--samples", DEFAULT_CCE_SAMPLES);
      const seed = count(opts.seed, "--seed", run.seed);
      const success = verdict.success;
      const cce = worldCce({
        spec,
        base,
        state: s.state,
        events: s.events,
        calls: run.calls,
        success,
        prior,
        counterfactual: samples === 0 ? null : { seed, samples },
      });
      const shapley =
        opts.shapley === true ? agentShapley(spec, base, run.calls, runAgentIds(spec), { seed }) : null;
      if (opts.json === true) process.stdout.write(`${JSON.stringify({ success, cce, shapley }, null, 2)}\n`);
      else process.stdout.write(cceText(success, cce, shapley, run));
    });
}

function count(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new UserError(`${name}: expected a whole number ≥ 0, got "${text}"`);
  return n;
}

const ratio = (n: number, d: number): string => `${d === 0 ? "–" : (n / d).toFixed(3)} (${n}/${d})`;

/** The text report: CCE with its denominators, PAC per agent, the closure's calls, the checks. */
export function cceText(success: boolean, c: WorldCce, shapley: AgentShapley | null, run: RunFile): string {
  const lines = [
    `success: ${success ? "yes" : "no"}`,
    `CCE ${ratio(c.contributing, c.actions)}; without waits ${ratio(c.contributing, c.actions - c.waits)}`,
    `by rule: ${
      Object.entries(c.reasons)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "–"
    }`,
    ...c.agents.map(
      (a) =>
        `  ${a.id.padEnd(14)} PAC ${ratio(a.contributing, a.actions)}  share ${ratio(a.actions, c.actions)}  waits ${a.waits}`,
    ),
  ];
  const cf = c.counterfactual;
  if (cf !== null)
    lines.push(
      `counterfactual (seed ${cf.seed}): closure calls necessary ${ratio(cf.inside.necessary, cf.inside.sampled)}, outside calls breaking success ${ratio(cf.outside.breaking, cf.outside.sampled)}`,
    );
  if (shapley !== null) {
    const how =
      shapley.method === "exact"
        ? "exact"
        : `Monte Carlo, ${shapley.permutations} permutations, seed ${shapley.seed}`;
    lines.push(
      `Shapley values (${how}; ${shapley.replays} coalitions replayed; success ${shapley.empty.success}→${shapley.full.success}, PSR ${shapley.empty.psr.toFixed(3)}→${shapley.full.psr.toFixed(3)}):`,
    );
    for (const a of shapley.agents)
      lines.push(`  ${a.id.padEnd(14)} success ${a.success.toFixed(3)}  PSR ${a.psr.toFixed(3)}`);
  }
  lines.push("closure (call index, round, agent, tool; W = witness):");
  const witnesses = new Set(c.witnesses);
  for (const i of c.closure) {
    const call = run.calls[i];
    const tool = String((call?.call as { tool?: unknown } | undefined)?.tool);
    lines.push(
      `  ${witnesses.has(i) ? "W" : " "} ${String(i).padStart(4)}  r${call?.round}  ${call?.agent}  ${tool}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
