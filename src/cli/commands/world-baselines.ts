import type { Command } from "commander";
import { alignTable } from "../../report/format.js";
import { createWorld } from "../../world/build/world.js";
import { loadWorldTask, worldTaskFiles } from "../../world/task/load.js";
import type { WorldTaskSpec } from "../../world/task/schema.js";
import { getTeamAgent } from "../../world/team/registry.js";
import { type BaselineRow, baselineConditions, runBaselines } from "../../world/trial/baselines.js";
import { writeJson } from "../options.js";
import { parseSeeds } from "./world-run.js";

interface BaselinesOpts {
  variants?: string;
  team: string;
  seeds: string;
  json?: boolean;
}

function loadSet(paths: readonly string[]): WorldTaskSpec[] {
  const world = createWorld();
  const files = worldTaskFiles(paths);
  return files.map((f) => loadWorldTask(f, world));
}

/** The table: one row per condition, SR (successes/plays) and PSR per task set. */
export function baselinesTable(rows: readonly BaselineRow[]): string {
  const sets = Object.keys(rows[0]?.sets ?? {});
  const header = ["condition", ...sets.flatMap((s) => [`${s} SR`, `${s} PSR`])];
  return alignTable(
    header,
    rows.map((r) => [
      r.condition.name,
      ...sets.flatMap((s) => {
        const x = r.sets[s];
        return x === undefined
          ? ["-", "-"]
          : [`${x.sr.toFixed(2)} (${x.successes}/${x.plays})`, x.psr.toFixed(2)];
      }),
    ]),
  );
}

/** `longhaul world baselines [TASKS...] [--variants DIR]`, added under the `world` command. */
export function registerWorldBaselinesCommand(world: Command): void {
  world
    .command("baselines")
    .description(
      "SR and PSR of a team on world tasks (and their variants) under the seed's baselines, in one table",
    )
    .argument(
      "[tasks...]",
      "task files or folders (default world-tasks/); tasks with variant_of are scored as the augmented set",
    )
    .option("--variants <dir>", "augmented tasks (longhaul world augment --out DIR), scored as a second set")
    .option("--team <name>", "the team under test", "scripted")
    .option("--seeds <list>", "team seeds, one play of each task per seed (comma-separated)", "1,2,3")
    .option("--json", "print the rows as JSON")
    .action(async (paths: string[], opts: BaselinesOpts) => {
      getTeamAgent(opts.team);
      const seeds = parseSeeds(opts.seeds);
      // A folder holding both (world-tasks/ with its variants/) splits by `variant_of`.
      const given = loadSet(paths.length > 0 ? paths : ["world-tasks"]);
      const augmented = [
        ...given.filter((t) => t.variant_of !== null),
        ...(opts.variants === undefined ? [] : loadSet([opts.variants])),
      ];
      const sets: Record<string, WorldTaskSpec[]> = {
        main: given.filter((t) => t.variant_of === null),
        ...(augmented.length > 0 ? { augmented } : {}),
      };
      const rows = await runBaselines(sets, createWorld(), baselineConditions(opts.team), seeds, (l) =>
        process.stderr.write(`${l}\n`),
      );
      if (opts.json) writeJson({ seeds, rows });
      else process.stdout.write(`${baselinesTable(rows)}\n`);
    });
}
