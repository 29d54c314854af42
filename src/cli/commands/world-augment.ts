import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Command } from "commander";
import { stringify } from "yaml";
import { checkOutFolder, UserError } from "../../core/index.js";
import { createWorld, type World } from "../../world/build/world.js";
import { loadWorldTask, parseWorldTask, worldTaskFiles } from "../../world/task/load.js";
import { roundZeroTraps } from "../../world/task/verify.js";
import { getTeamAgent } from "../../world/team/registry.js";
import { augmentTask } from "../../world/trial/augment.js";
import { playWorldTask } from "../../world/trial/play.js";
import { makeOutFolder, userWrite } from "./world-out.js";

/** One task's outcome: the variant written (and the draw that made it), or why none was. */
export interface AugmentLine {
  file: string;
  ok: boolean;
  /** A variant given as input: it is not varied again. */
  skipped?: boolean;
  text: string;
}

interface AugmentOptions {
  out: string;
  seed: number;
  tries: number;
  team: string;
}

/**
 * For each task, draws variants (seed, seed + 1, … up to `tries`) until one is valid — it loads
 * as a task file, nothing holds at round 0, and the reference team reaches success — and writes it
 * to `out` as `<id>-v1.yaml` with `variant_of` naming the task.
 */
export async function augmentWorldTasks(
  paths: readonly string[],
  world: World,
  o: AugmentOptions,
): Promise<AugmentLine[]> {
  checkOutFolder(o.out, "--out"); // before any work: a file in the way is one line
  const files = worldTaskFiles(paths);
  makeOutFolder(o.out);
  const lines: AugmentLine[] = [];
  for (const file of files) {
    const spec = loadWorldTask(file, world);
    // A variant is not varied again (world-tasks/ holds its variants/ too).
    if (spec.variant_of !== null) {
      lines.push({ file, ok: true, skipped: true, text: `skipped: a variant of ${spec.variant_of}` });
      continue;
    }
    const why: string[] = [];
    let done: AugmentLine | null = null;
    for (let t = 0; t < o.tries && done === null; t++) {
      const seed = o.seed + t;
      const v = augmentTask(spec, world, seed);
      const target = join(o.out, `${v.spec.id}.yaml`);
      const text = `# A variant of ${spec.id} (${basename(file)}), longhaul world augment --seed ${seed}: ${v.changes.join("; ")}.\n${stringify(v.spec)}`;
      // The variant is checked as the file it will be: parsed back, not the object in memory.
      const back = parseWorldTask(text, target, world);
      const traps = roundZeroTraps(back, world);
      if (traps.length > 0) {
        why.push(`seed ${seed}: true at round 0 (${traps.join(", ")})`);
        continue;
      }
      const r = await playWorldTask(back, world, { team: o.team, seed: 1 });
      if (!r.verdict.success) {
        why.push(`seed ${seed}: ${o.team} fails (${r.verdict.successDetail})`);
        continue;
      }
      userWrite(target, () => writeFileSync(target, text));
      done = {
        file,
        ok: true,
        text: `${target}: ${v.changes.join("; ")}; ${o.team} succeeds in ${r.rounds} rounds, psr ${r.verdict.psr.toFixed(2)}`,
      };
    }
    lines.push(
      done ?? { file, ok: false, text: `no solvable variant in ${o.tries} draws: ${why.join("; ")}` },
    );
  }
  return lines;
}

function wholeNumber(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UserError(`${flag}: expected a whole number ≥ ${min}, got "${value}"`);
  return n;
}

/** `longhaul world augment [DIR|FILE...] --out DIR`, added under the `world` command. */
export function registerWorldAugmentCommand(world: Command): void {
  world
    .command("augment")
    .description(
      "Write a harder, verified variant of each world task (goal quantities, spawns, task items, budget)",
    )
    .argument("[paths...]", "task files or folders of *.yaml (default world-tasks/)")
    .requiredOption("--out <dir>", "folder for the variants (<id>-v1.yaml each)")
    .option("--seed <n>", "the first draw's seed", "1")
    .option("--tries <n>", "draws per task until one is solvable", "5")
    .option("--team <name>", "the reference team that must solve each variant", "scripted")
    .action(async (paths: string[], opts: { out: string; seed: string; tries: string; team: string }) => {
      const options: AugmentOptions = {
        out: opts.out,
        seed: wholeNumber("--seed", opts.seed, 0),
        tries: wholeNumber("--tries", opts.tries, 1),
        team: opts.team,
      };
      getTeamAgent(options.team);
      const lines = await augmentWorldTasks(
        paths.length > 0 ? paths : ["world-tasks"],
        createWorld(),
        options,
      );
      for (const l of lines)
        process.stdout.write(`${l.skipped ? "skip" : l.ok ? "ok  " : "FAIL"} ${l.file}: ${l.text}\n`);
      const failed = lines.filter((l) => !l.ok).length;
      const varied = lines.filter((l) => l.skipped !== true).length;
      process.stderr.write(`${varied - failed}/${varied} tasks have a verified variant in ${options.out}\n`);
      if (failed > 0) process.exitCode = 1;
    });
}
