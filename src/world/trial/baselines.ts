import type { World } from "../build/world.js";
import type { WorldTaskSpec } from "../task/schema.js";
import { parseWorldModifiers } from "./modifiers.js";
import { playWorldTask } from "./play.js";

/** One row of the baselines table: a team under a modifier set. */
export interface BaselineCondition {
  name: string;
  team: string;
  modifiers: string;
}

/** The seed's baselines: the full team, a random team, and the team under each communication baseline. */
export function baselineConditions(team: string): BaselineCondition[] {
  return [
    { name: `${team} (full)`, team, modifiers: "" },
    { name: "random", team: "random", modifiers: "" },
    { name: `${team} + no-comm`, team, modifiers: "no-comm" },
    { name: `${team} + shared-plan`, team, modifiers: "shared-plan" },
    { name: `${team} + merged`, team, modifiers: "merged" },
    { name: `${team} + oracle-comm`, team, modifiers: "oracle-comm" },
  ];
}

/** SR and PSR of one condition over a task set, with their counts. */
export interface SetScore {
  plays: number;
  successes: number;
  sr: number;
  psr: number;
}

export interface BaselineRow {
  condition: BaselineCondition;
  /** By set name (e.g. "main", "augmented"). */
  sets: Record<string, SetScore>;
}

/**
 * Plays every task of every set under every condition once per seed, in process (no trials are
 * stored), and scores each condition per set: SR = successes / plays, PSR = mean R.
 */
export async function runBaselines(
  sets: Readonly<Record<string, readonly WorldTaskSpec[]>>,
  world: World,
  conditions: readonly BaselineCondition[],
  seeds: readonly number[],
  progress: (line: string) => void = () => undefined,
): Promise<BaselineRow[]> {
  const rows: BaselineRow[] = [];
  for (const c of conditions) {
    const modifiers = parseWorldModifiers(c.modifiers);
    const scores: Record<string, SetScore> = {};
    for (const [name, tasks] of Object.entries(sets)) {
      let successes = 0;
      let psr = 0;
      for (const task of tasks)
        for (const seed of seeds) {
          const r = await playWorldTask(task, world, { team: c.team, seed, modifiers });
          if (r.verdict.success) successes += 1;
          psr += r.verdict.psr;
        }
      const plays = tasks.length * seeds.length;
      scores[name] = {
        plays,
        successes,
        sr: plays === 0 ? 0 : successes / plays,
        psr: plays === 0 ? 0 : psr / plays,
      };
      progress(`${c.name} on ${name}: ${successes}/${plays} succeed`);
    }
    rows.push({ condition: c, sets: scores });
  }
  return rows;
}
