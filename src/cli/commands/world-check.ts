import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { buildWorld, createWorld, type World } from "../../world/build/world.js";
import { DEFAULT_SEED } from "../../world/content/generate-content.js";
import { loadPackDir } from "../../world/content/load.js";
import { loadWorldTask, worldTaskFiles } from "../../world/task/load.js";
import { replayReference, replayWaits } from "../../world/task/replay.js";
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
 * One line per file; problems are reported, not thrown.
 */
export async function checkWorldTasks(
  paths: readonly string[],
  world: World,
  o: WorldCheckOptions = {},
): Promise<WorldCheckLine[]> {
  checkTeamCanCheck(o.team ?? "scripted");
  const files = worldTaskFiles(paths);
  const ids = new Map<string, string>();
  const lines: WorldCheckLine[] = [];
  for (const file of files) lines.push(await checkOne(file, world, ids, o));
  return lines;
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
  world: World,
  ids: Map<string, string>,
  o: WorldCheckOptions,
): Promise<WorldCheckLine> {
  let id: string | null = null;
  const team = o.team ?? "scripted";
  const play = { team, seed: o.seed ?? 1 };
  try {
    const spec = loadWorldTask(file, world);
    id = spec.id;
    const other = ids.get(spec.id);
    if (other !== undefined) return { file, id, ok: false, text: `id "${spec.id}" is also used by ${other}` };
    ids.set(spec.id, file);
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
    // Load errors already name the file.
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
