import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { buildWorld, createWorld, type World } from "../../world/build/world.js";
import { DEFAULT_SEED } from "../../world/content/generate-content.js";
import { loadPackDir } from "../../world/content/load.js";
import { loadWorldTask, worldTaskFiles } from "../../world/task/load.js";
import { replayReference, replayWaits } from "../../world/task/replay.js";
import type { WorldTaskSpec } from "../../world/task/schema.js";
import { roundZeroTraps, verifyWorldRun } from "../../world/task/verify.js";
import { getTeamAgent } from "../../world/team/registry.js";
import { playSoloRole, playWorldTask } from "../../world/trial/play.js";

export interface WorldCheckLine {
  file: string;
  id: string | null;
  ok: boolean;
  text: string;
}

/** How world tasks are checked: the team that must solve each task (and fail it as any one role). */
export interface WorldCheckOptions {
  /** The reference team (default `scripted`): it plans from the task, it does not replay calls. */
  team?: string;
  /** The team's seed. */
  seed?: number;
}

/**
 * Checks world task files: the schema and references, no condition already true at round 0,
 * the reference calls (when the task has them) reaching success with every checkpoint, the
 * reference team solving the task, a team that only waits not succeeding, and no single role
 * succeeding alone (the merged baseline with one role's abilities, played by the reference team).
 * Every file is loaded before any is played: a file that does not load (bad YAML or UTF-8, a
 * field the schema refuses, an unknown item) or a second file of one id is bad input, a UserError
 * naming the file (and line and field where known), not a failed check. The checks then give one
 * line per file; their failures are reported, not thrown.
 */
export async function checkWorldTasks(
  paths: readonly string[],
  world: World,
  o: WorldCheckOptions = {},
): Promise<WorldCheckLine[]> {
  checkTeamCanCheck(o.team ?? "scripted");
  const specs = loadAll(worldTaskFiles(paths), world);
  const lines: WorldCheckLine[] = [];
  for (const { file, spec } of specs) lines.push(await checkOne(file, spec, world, o));
  return lines;
}

/** Each file's task, loaded and validated; ids are unique in a set (as `world list` and `run` require). */
function loadAll(files: readonly string[], world: World): { file: string; spec: WorldTaskSpec }[] {
  const ids = new Map<string, string>();
  return files.map((file) => {
    const spec = loadWorldTask(file, world);
    const other = ids.get(spec.id);
    if (other !== undefined) throw new UserError(`${file}: id: "${spec.id}" is also the id of ${other}`);
    ids.set(spec.id, file);
    return { file, spec };
  });
}

/**
 * The single-role step plays a merged agent, which the oracle cannot be (its reference calls are
 * for the separate agents): under it every role would "fail alone" untested, so it is refused.
 */
function checkTeamCanCheck(team: string): void {
  if (team === "oracle")
    throw new UserError(
      "--team oracle cannot play a task as one role (its reference calls are for the separate agents), so the single-role check would prove nothing; use scripted (the reference calls are replayed anyway)",
    );
}

async function checkOne(
  file: string,
  spec: WorldTaskSpec,
  world: World,
  o: WorldCheckOptions,
): Promise<WorldCheckLine> {
  const id = spec.id;
  const team = o.team ?? "scripted";
  const play = { team, seed: o.seed ?? 1 };
  try {
    const bad = (text: string): WorldCheckLine => ({ file, id, ok: false, text });
    const traps = roundZeroTraps(spec, world);
    if (traps.length > 0) return bad(`true at round 0: ${traps.join(", ")}`);
    const parts: string[] = [];
    if (spec.reference !== undefined) {
      const ref = replayReference(spec, world);
      const v = verifyWorldRun(spec, world, ref.state, ref.events);
      const failed = ref.results.filter((r) => !r.result.ok).length;
      const summary = `reference ${v.success ? "succeeds" : "FAILS"} in ${ref.rounds} rounds, psr ${v.psr.toFixed(2)}${failed > 0 ? `, ${failed} failed calls` : ""}`;
      if (!v.success) return bad(`${summary}: ${v.successDetail}`);
      const missed = v.checkpoints.filter((c) => !c.reached);
      if (missed.length > 0)
        return bad(`${summary}; missed ${missed.map((c) => `${c.id} (${c.detail})`).join(", ")}`);
      parts.push(summary);
    }
    const solved = await playWorldTask(spec, world, play);
    const solvedText = `${team} ${solved.verdict.success ? "succeeds" : "FAILS"} in ${solved.rounds} rounds, psr ${solved.verdict.psr.toFixed(2)}`;
    if (!solved.verdict.success)
      return bad([...parts, `${solvedText}: ${solved.verdict.successDetail}`].join("; "));
    parts.push(solvedText);
    const idle = replayWaits(spec, world);
    const w = verifyWorldRun(spec, world, idle.state, idle.events);
    if (w.success) return bad([...parts, "waiting alone succeeds"].join("; "));
    parts.push(`waiting: psr ${w.psr.toFixed(2)}`);
    // No role may finish alone: the one agent with only that role's abilities must fail.
    const solos: string[] = [];
    for (const role of [...new Set(spec.team.map((m) => m.role))]) {
      const r = await playSoloRole(spec, world, role, play);
      if (r.verdict.success)
        return bad([...parts, `${role} alone succeeds (${team}, merged with only its abilities)`].join("; "));
      solos.push(`${role} ${r.verdict.psr.toFixed(2)}`);
    }
    parts.push(`each role alone fails (psr ${solos.join(", ")})`);
    return { file, id, ok: true, text: `${spec.category}, ${parts.join("; ")}` };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    // A task that loads can still be refused in play (a team that cannot play it): the task's line.
    return {
      file,
      id,
      ok: false,
      text: e.message.startsWith(file) ? e.message.slice(file.length + 2) : e.message,
    };
  }
}

/** `longhaul world check [DIR|FILE...]`, added under the `world` command. */
export function registerWorldCheckCommand(world: Command): void {
  world
    .command("check")
    .description(
      "Check world task files: schema, round-0 traps, the reference and the reference team succeed, no single role succeeds alone",
    )
    .argument("[paths...]", "task files or folders of *.yaml (default world-tasks/)")
    .option("--seed <n>", "world seed")
    .option("--content <dir>", "load a content pack folder instead of generating one")
    .option(
      "--team <name>",
      "the reference team that must solve each task and fail it as any one role",
      "scripted",
    )
    .action(async (paths: string[], opts: { seed?: string; content?: string; team: string }) => {
      const seed = opts.seed === undefined ? DEFAULT_SEED : Number(opts.seed);
      if (!Number.isInteger(seed) || seed < 0)
        throw new UserError(`--seed: expected a non-negative integer, got "${opts.seed}"`);
      const w = opts.content !== undefined ? buildWorld(loadPackDir(opts.content)) : createWorld(seed);
      getTeamAgent(opts.team); // an unknown team is a usage error before any task is played
      checkTeamCanCheck(opts.team);
      const lines = await checkWorldTasks(paths.length > 0 ? paths : ["world-tasks"], w, { team: opts.team });
      for (const l of lines)
        process.stdout.write(`${l.ok ? "ok  " : "FAIL"} ${l.id ?? "?"} (${l.file}): ${l.text}\n`);
      const failed = lines.filter((l) => !l.ok).length;
      process.stderr.write(`${lines.length - failed}/${lines.length} world tasks pass\n`);
      if (failed > 0) process.exitCode = 1;
    });
}
