import { statSync } from "node:fs";
import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { buildWorld, createWorld, type World } from "../../world/build/world.js";
import { DEFAULT_SEED } from "../../world/content/generate-content.js";
import { loadPackDir } from "../../world/content/load.js";
import { loadWorldTask, yamlFiles } from "../../world/task/load.js";
import { replayReference, replayWaits } from "../../world/task/replay.js";
import { roundZeroTraps, verifyWorldRun } from "../../world/task/verify.js";

export interface WorldCheckLine {
  file: string;
  id: string | null;
  ok: boolean;
  text: string;
}

/**
 * Checks world task files: the schema and references, no condition already true at round 0,
 * the reference solution reaching success (all checkpoints too), and a team that only waits
 * not succeeding. One line per file; problems are reported, not thrown.
 */
export function checkWorldTasks(paths: readonly string[], world: World): WorldCheckLine[] {
  const files = paths.flatMap((p) => (isDir(p) ? yamlFiles(p) : [p]));
  if (files.length === 0) throw new UserError(`no *.yaml world tasks in ${paths.join(", ")}`);
  const ids = new Map<string, string>();
  return files.map((file) => {
    let id: string | null = null;
    try {
      const spec = loadWorldTask(file, world);
      id = spec.id;
      const other = ids.get(spec.id);
      if (other !== undefined)
        return { file, id, ok: false, text: `id "${spec.id}" is also used by ${other}` };
      ids.set(spec.id, file);
      const traps = roundZeroTraps(spec, world);
      if (traps.length > 0) return { file, id, ok: false, text: `true at round 0: ${traps.join(", ")}` };
      if (spec.reference === undefined) return { file, id, ok: false, text: "no reference solution" };
      const ref = replayReference(spec, world);
      const v = verifyWorldRun(spec, world, ref.state, ref.events);
      const failed = ref.results.filter((r) => !r.result.ok).length;
      const summary = `reference ${v.success ? "succeeds" : "FAILS"} in ${ref.rounds} rounds, psr ${v.psr.toFixed(2)}${failed > 0 ? `, ${failed} failed calls` : ""}`;
      if (!v.success) return { file, id, ok: false, text: `${summary}: ${v.successDetail}` };
      const missed = v.checkpoints.filter((c) => !c.reached);
      if (missed.length > 0)
        return {
          file,
          id,
          ok: false,
          text: `${summary}; missed ${missed.map((c) => `${c.id} (${c.detail})`).join(", ")}`,
        };
      const idle = replayWaits(spec, world);
      const w = verifyWorldRun(spec, world, idle.state, idle.events);
      if (w.success) return { file, id, ok: false, text: `${summary}; waiting alone succeeds` };
      return { file, id, ok: true, text: `${spec.category}, ${summary}; waiting: psr ${w.psr.toFixed(2)}` };
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      // Load errors already name the file.
      return {
        file,
        id,
        ok: false,
        text: e.message.startsWith(file) ? e.message.slice(file.length + 2) : e.message,
      };
    }
  });
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    throw new UserError(`${p}: no such file or folder`);
  }
}

/** `longhaul world check [DIR|FILE...]`, added under the `world` command. */
export function registerWorldCheckCommand(world: Command): void {
  world
    .command("check")
    .description("Check world task files: schema, round-0 traps, the reference reaches success")
    .argument("[paths...]", "task files or folders of *.yaml (default world-tasks/)")
    .option("--seed <n>", "world seed")
    .option("--content <dir>", "load a content pack folder instead of generating one")
    .action((paths: string[], opts: { seed?: string; content?: string }) => {
      const seed = opts.seed === undefined ? DEFAULT_SEED : Number(opts.seed);
      if (!Number.isInteger(seed) || seed < 0)
        throw new UserError(`--seed: expected a non-negative integer, got "${opts.seed}"`);
      const w = opts.content !== undefined ? buildWorld(loadPackDir(opts.content)) : createWorld(seed);
      const lines = checkWorldTasks(paths.length > 0 ? paths : ["world-tasks"], w);
      for (const l of lines)
        process.stdout.write(`${l.ok ? "ok  " : "FAIL"} ${l.id ?? "?"} (${l.file}): ${l.text}\n`);
      const failed = lines.filter((l) => !l.ok).length;
      process.stderr.write(`${lines.length - failed}/${lines.length} world tasks pass\n`);
      if (failed > 0) process.exitCode = 1;
    });
}
