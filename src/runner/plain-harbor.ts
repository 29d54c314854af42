import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage, UserError } from "../core/errors.js";
import { REWARD_DETAILS_JSON, REWARD_JSON, REWARD_TXT, scoreTrial } from "../grading/reward.js";
import { resolveTaskImage } from "../sandbox/image/build-image.js";
import { docker, dockerOk, dockerUnavailable, lastLines } from "../sandbox/image/docker-cli.js";
import type { Task } from "../task/types.js";
import { carriesKit } from "../task/verifier-kit.js";
import { imageOptions } from "./task-image.js";

/**
 * A task run the way plain Harbor runs it: a container of the image built from the task's own
 * Dockerfile, solution/ copied to /solution and solve.sh run, then tests/ copied to /tests and
 * test.sh run — no /longhaul mount, no LONGHAUL_* variable, no seed given (the verifier kit draws
 * one and records it). Shows a task needs nothing of longhaul's install to be graded.
 */
export interface PlainHarborRun {
  agent: "oracle" | "nop";
  /** R recomputed from the rubric's weights; null when the verifier left no usable reward. */
  reward: number | null;
  subtasks: Record<string, number>;
  /** The seed the verifier recorded in reward-details.json, and how it got it ("drawn" with none given). */
  seed: number | null;
  seedSource: string | null;
  seconds: number;
  error: string | null;
}

export interface PlainHarborResult {
  task: string;
  /** Oracle R = 1.0, nop R ≤ 0.05, and (a task carrying the verifier kit) the seed it drew recorded. */
  ok: boolean;
  runs: PlainHarborRun[];
  detail: string;
}

export const PLAIN_HARBOR_NOP_MAX = 0.05;

const detailsSchema = z.looseObject({
  seed: z.number().int().nullish(),
  seed_source: z.string().nullish(),
});

export async function checkPlainHarbor(
  task: Task,
  o: { logDir: string; timeoutMultiplier?: number },
): Promise<PlainHarborResult> {
  // Harbor runs every task in a container: a task without an image is not one it can run.
  if (task.image === null) {
    const detail = "no environment/Dockerfile or [environment] docker_image: Harbor runs a task in its image";
    return { task: task.name, ok: false, runs: [], detail };
  }
  const why = await dockerUnavailable();
  if (why !== null) throw new UserError(why);
  mkdirSync(o.logDir, { recursive: true });
  let image: string;
  try {
    // docker_image, when set, wins over the Dockerfile, as in Harbor.
    const built = await resolveTaskImage(imageOptions(task, join(o.logDir, "build.log")));
    if (built === null) throw new UserError(`task ${task.name}: no image to run`);
    image = built.image.id;
  } catch (e) {
    // One task's image is that task's failure; the others are still checked.
    return { task: task.name, ok: false, runs: [], detail: `image: ${errorMessage(e)}` };
  }
  const runs: PlainHarborRun[] = [];
  for (const agent of ["oracle", "nop"] as const) {
    runs.push(await runOnce(task, image, agent, o.timeoutMultiplier ?? 1));
  }
  const [oracle, nop] = runs;
  const problems: string[] = [];
  if (oracle?.reward !== 1)
    problems.push(`oracle R = ${fmt(oracle?.reward)}${oracle?.error ? ` (${oracle.error})` : ""}`);
  if (nop?.reward == null || nop.reward > PLAIN_HARBOR_NOP_MAX) problems.push(`nop R = ${fmt(nop?.reward)}`);
  // The verifier kit draws a seed when none is given and records it; a grader of the task's own
  // (a plain Harbor task) has no seed to record.
  const usesKit = carriesKit(task.paths.tests);
  for (const r of usesKit ? runs : []) {
    if (r.seedSource !== "drawn") {
      problems.push(
        `${r.agent}: reward-details.json records no drawn seed (seed_source ${r.seedSource ?? "absent"})`,
      );
    }
  }
  const seed = usesKit ? ` (seed ${oracle?.seed}, drawn)` : "";
  const detail =
    problems.length > 0
      ? problems.join("; ")
      : `oracle R = 1.000${seed}, nop R = ${fmt(nop?.reward)}${usesKit ? "" : " (no verifier kit: no seed to record)"}`;
  return { task: task.name, ok: problems.length === 0, runs, detail };
}

async function runOnce(
  task: Task,
  image: string,
  agent: "oracle" | "nop",
  mult: number,
): Promise<PlainHarborRun> {
  const started = Date.now();
  const seconds = (): number => (Date.now() - started) / 1000;
  const fail = (error: string): PlainHarborRun => ({
    agent,
    reward: null,
    subtasks: {},
    seed: null,
    seedSource: null,
    seconds: seconds(),
    error,
  });
  let id: string | null = null;
  try {
    // No network, as Harbor's offline tasks; `sleep` keeps it up between the phases' execs.
    id = (
      await dockerOk([
        "run",
        "-d",
        "--network",
        "none",
        "--label",
        "longhaul.plain-harbor=1",
        "--entrypoint",
        "sleep",
        image,
        "infinity",
      ])
    ).trim();
    await dockerOk(["exec", id, "mkdir", "-p", "/logs/verifier", "/logs/agent"]);
    if (agent === "oracle") {
      await dockerOk(["cp", task.paths.solution, `${id}:/solution`]);
      const solve = await docker(["exec", id, "bash", "/solution/solve.sh"], {
        timeoutSec: task.config.agent.timeout_sec * mult,
      });
      if (solve.exitCode !== 0)
        return fail(`solve.sh exited with ${solve.exitCode}: ${lastLines(solve.stderr, 2)}`);
    }
    await dockerOk(["cp", task.paths.tests, `${id}:/tests`]);
    const verify = await docker(["exec", id, "bash", "/tests/test.sh"], {
      timeoutSec: task.config.verifier.timeout_sec * mult,
    });
    if (verify.timedOut) return fail(`test.sh timed out after ${task.config.verifier.timeout_sec * mult} s`);
    const container = id;
    const read = async (name: string): Promise<string | null> => {
      const r = await docker(["exec", container, "cat", `/logs/verifier/${name}`]);
      return r.exitCode === 0 ? r.stdout : null;
    };
    const [rewardJson, rewardTxt, detailsJson] = await Promise.all([
      read(REWARD_JSON),
      read(REWARD_TXT),
      read(REWARD_DETAILS_JSON),
    ]);
    const scored = scoreTrial({ rewardJson, rewardTxt, detailsJson, rubric: task.rubric });
    const details = parseDetails(detailsJson);
    return {
      agent,
      reward: scored.reward,
      subtasks: Object.fromEntries(scored.subtasks.map((s) => [s.id, s.score])),
      seed: details.seed ?? null,
      seedSource: details.seed_source ?? null,
      seconds: seconds(),
      error: scored.failed
        ? `no usable reward (test.sh exit ${verify.exitCode}): ${scored.gradingErrors.join("; ") || lastLines(verify.stderr, 2)}`
        : null,
    };
  } catch (e) {
    return fail(errorMessage(e));
  } finally {
    if (id !== null) await docker(["rm", "-f", id]).catch(() => undefined);
  }
}

function parseDetails(text: string | null): z.infer<typeof detailsSchema> {
  if (text === null) return {};
  try {
    const r = detailsSchema.safeParse(JSON.parse(text));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

function fmt(x: number | null | undefined): string {
  return x == null ? "null" : x.toFixed(3);
}
