import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { createWorld, type World } from "../../world/build/world.js";
import { loadWorldTask, parseWorldTask, readTaskText, worldTaskFiles } from "../../world/task/load.js";
import { referenceFromCalls, withReference } from "../../world/task/record-reference.js";
import { replayReference } from "../../world/task/replay.js";
import { verifyWorldRun } from "../../world/task/verify.js";
import { getTeamAgent } from "../../world/team/registry.js";
import { startWorldPlay } from "../../world/trial/play.js";

/** One task's outcome: the reference written, or why none was. */
export interface RecordLine {
  file: string;
  ok: boolean;
  text: string;
}

/**
 * For each task file, a team (default `scripted`) plays the task; when it succeeds, its calls
 * (without waits and chats) become the file's `reference`, written back into the file with its
 * comments and other keys kept. The new file must load and its reference must replay to success
 * with every checkpoint, or nothing is written.
 */
export async function recordWorldReferences(
  paths: readonly string[],
  world: World,
  o: { team: string; dryRun?: boolean },
): Promise<RecordLine[]> {
  const lines: RecordLine[] = [];
  for (const file of worldTaskFiles(paths)) {
    const spec = loadWorldTask(file, world);
    const play = startWorldPlay({ ...spec, reference: undefined }, world, { team: o.team, seed: 1 });
    await play.session.runAsync(play.act);
    const v = verifyWorldRun(play.spec, play.session.world, play.session.state, play.session.events);
    if (!v.success) {
      lines.push({
        file,
        ok: false,
        text: `${o.team} fails in ${play.session.roundsPlayed} rounds: ${v.successDetail}`,
      });
      continue;
    }
    const rounds = referenceFromCalls(play.session.calls);
    const text = withReference(readTaskText(file), file, rounds);
    const back = parseWorldTask(text, file, world);
    const ref = replayReference(back, world);
    const rv = verifyWorldRun(back, world, ref.state, ref.events);
    const missed = rv.checkpoints.filter((c) => !c.reached).map((c) => c.id);
    if (!rv.success || missed.length > 0) {
      const why = rv.success ? `misses ${missed.join(", ")}` : rv.successDetail;
      lines.push({ file, ok: false, text: `the recorded calls replay without success: ${why}` });
      continue;
    }
    if (o.dryRun !== true) writeFileSync(file, text);
    const calls = rounds.reduce((n, r) => n + r.length, 0);
    lines.push({
      file,
      ok: true,
      text: `${o.dryRun === true ? "would write" : "wrote"} a ${rounds.length}-round reference (${calls} calls; ${o.team} succeeded in ${play.session.roundsPlayed} rounds, psr ${v.psr.toFixed(2)})`,
    });
  }
  return lines;
}

/** `longhaul world record [DIR|FILE...] [--team NAME] [--dry-run]`, added under `world`. */
export function registerWorldRecordCommand(world: Command): void {
  world
    .command("record")
    .description("Play world tasks with a team and write its calls as each task's reference")
    .argument("<paths...>", "task files or folders of *.yaml")
    .option("--team <name>", "the team whose calls become the reference", "scripted")
    .option("--dry-run", "check and report, write nothing")
    .action(async (paths: string[], opts: { team: string; dryRun?: boolean }) => {
      getTeamAgent(opts.team);
      if (opts.team === "oracle") throw new UserError("--team oracle replays the reference it would record");
      const lines = await recordWorldReferences(paths, createWorld(), opts);
      for (const l of lines) process.stdout.write(`${l.ok ? "ok  " : "FAIL"} ${l.file}: ${l.text}\n`);
      const failed = lines.filter((l) => !l.ok).length;
      process.stderr.write(`${lines.length - failed}/${lines.length} references recorded\n`);
      if (failed > 0) process.exitCode = 1;
    });
}
