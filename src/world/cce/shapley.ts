import { Rng } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { type RecordedCall, replayMasked } from "./counterfactual.js";

/** Exact Shapley values up to this many agents (2^n replays); Monte Carlo above. */
export const SHAPLEY_EXACT_MAX = 10;

export interface AgentShapley {
  method: "exact" | "monte-carlo";
  /** Permutations sampled (Monte Carlo), null when exact. */
  permutations: number | null;
  seed: number;
  /** Distinct coalitions replayed. */
  replays: number;
  /** Per agent: its Shapley value for success (0/1) and for PSR. They sum to v(all) − v(none). */
  agents: { id: string; success: number; psr: number }[];
  /** The two games' values for the whole team and for nobody. */
  full: { success: number; psr: number };
  empty: { success: number; psr: number };
}

/**
 * Shapley values of the agents, by masking: a coalition's value is the verdict (success as 0/1,
 * and PSR) of the run replayed with every call of the agents outside it made a `wait`. Exact for
 * up to SHAPLEY_EXACT_MAX agents (every coalition), else the mean marginal value over
 * `permutations` seeded random orders.
 */
export function agentShapley(
  spec: WorldTaskSpec,
  base: World,
  calls: readonly RecordedCall[],
  agents: readonly string[],
  opts: { seed: number; permutations?: number },
): AgentShapley {
  const n = agents.length;
  const cache = new Map<number, { success: number; psr: number }>();
  const value = (mask: number): { success: number; psr: number } => {
    const hit = cache.get(mask);
    if (hit !== undefined) return hit;
    const member = new Set(agents.filter((_, i) => (mask >> i) & 1));
    const v = replayMasked(spec, base, calls, (index) => !member.has(calls[index]?.agent ?? ""));
    const out = { success: v.success ? 1 : 0, psr: v.psr };
    cache.set(mask, out);
    return out;
  };
  const phi = agents.map(() => ({ success: 0, psr: 0 }));
  const all = (1 << n) - 1;
  let permutations: number | null = null;
  if (n <= SHAPLEY_EXACT_MAX) {
    const fact = [1];
    for (let k = 1; k <= n; k++) fact.push((fact[k - 1] ?? 1) * k);
    for (let mask = 0; mask <= all; mask++) {
      const size = popcount(mask);
      for (let i = 0; i < n; i++) {
        if ((mask >> i) & 1) continue;
        const w = ((fact[size] ?? 1) * (fact[n - size - 1] ?? 1)) / (fact[n] ?? 1);
        const gain = value(mask | (1 << i));
        const had = value(mask);
        const p = phi[i];
        if (p === undefined) continue;
        p.success += w * (gain.success - had.success);
        p.psr += w * (gain.psr - had.psr);
      }
    }
  } else {
    permutations = opts.permutations ?? 200;
    const rng = new Rng(opts.seed);
    for (let m = 0; m < permutations; m++) {
      const order = agents.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [order[i], order[j]] = [order[j] as number, order[i] as number];
      }
      let mask = 0;
      for (const i of order) {
        const had = value(mask);
        mask |= 1 << i;
        const gain = value(mask);
        const p = phi[i];
        if (p === undefined) continue;
        p.success += (gain.success - had.success) / permutations;
        p.psr += (gain.psr - had.psr) / permutations;
      }
    }
  }
  return {
    method: permutations === null ? "exact" : "monte-carlo",
    permutations,
    seed: opts.seed,
    replays: cache.size,
    agents: agents.map((id, i) => ({ id, success: phi[i]?.success ?? 0, psr: phi[i]?.psr ?? 0 })),
    full: value(all),
    empty: value(0),
  };
}

function popcount(x: number): number {
  let c = 0;
  for (let v = x; v !== 0; v &= v - 1) c++;
  return c;
}
