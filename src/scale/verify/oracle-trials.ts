import { accessSync, constants, cpSync, mkdtempSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { linkedController, type Settled, settle, unsettle } from "../../core/all-or-stop.js";
import { errorMessage, InfraError, type TrialResult } from "../../core/index.js";
import { runTrial } from "../../runner/run-trial.js";
import { overImage, prepareTask } from "../../runner/task-image.js";
import { envChecksum } from "../../sandbox/image/env-checksum.js";
import type { ImageRef } from "../../sandbox/image/types.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import { loadTask } from "../../task/load.js";
import { type CheckResult, checkResult, type Diagnostic, diag } from "./diagnostics.js";

export interface OracleCheckInput {
  childDir: string;
  parentDir: string;
  provider: SandboxProvider;
  /** The verifier seed of both trials (default 1000, `task check`'s first seed). */
  seed?: number;
  timeoutMultiplier?: number;
  signal?: AbortSignal;
  /** Whose solution parentDir holds, for messages ("parent"; "root" for a program task's child). */
  bareLabel?: string;
  /** Images already looked up in this run (a lineage's children mostly share their environment). */
  images?: ImageMemo;
}

/**
 * Images resolved in one run, by the checksum of the environment/ they were built from (the
 * image's own label): the children of a program task all keep the root's environment, so the
 * daemon is asked once per lineage rather than once per child.
 */
export type ImageMemo = Map<string, ImageRef>;

/**
 * Check (d), with real trials through the runner: the child's oracle (restore steps, then the
 * parent's solution) scores R = 1.0 in the child, and the parent's oracle alone does not (so the
 * transforms changed something the solution depends on).
 */
export async function checkOracle(input: OracleCheckInput): Promise<CheckResult> {
  const scratch = mkdtempSync(join(tmpdir(), "longhaul-res-oracle-"));
  // Stops the child's trial, started before the rest is ready, when the check ends without it.
  const { stop, release } = linkedController(input.signal);
  let early: Promise<Settled<TrialResult>> | null = null;
  try {
    const out: Diagnostic[] = [];
    const label = input.bareLabel ?? "parent";
    const childReady = await prepare(input.childDir, scratch, "child", input.images);
    // The two trials share the host's network when the task allows it: a local service the child
    // starts would answer the parent's oracle, so they run one after the other. Otherwise the
    // child's trial, most of a child's verification, starts now.
    const shared = typeof childReady !== "string" && childReady.task.config.environment.allow_internet;
    if (typeof childReady !== "string" && !shared) {
      early = settle(trial({ ...input, signal: stop.signal }, childReady, scratch, "child"));
    }
    const parentSolution = join(input.parentDir, "solution");
    const unreadable = solutionUnreadable(parentSolution);
    if (unreadable !== null) {
      const why = `the ${label}'s solution (${input.parentDir}) cannot be read: ${unreadable}`;
      return checkResult("oracle", [diag("lineage-mismatch", null, why)], "");
    }
    if (typeof childReady === "string") {
      await parentMustBuild(input.parentDir, scratch);
      return checkResult("oracle", [diag("oracle-fails", null, childReady)], "");
    }
    // The parent's oracle in the child: the child task as loaded, its environment, image and tests,
    // with the parent's solution/ in place of its own (the oracle agent reads nothing else of the
    // task's folder for it). Nothing is copied or loaded a second time.
    const parentReady: Ready = {
      ...childReady,
      task: { ...childReady.task, paths: { ...childReady.task.paths, solution: parentSolution } },
    };
    // The bare oracle only has to score below 1: its grader may stop at the first failed subtask.
    const runParent = (): Promise<TrialResult> =>
      trial({ ...input, signal: stop.signal }, parentReady, scratch, "parent", true);
    let child: TrialResult;
    let parent: TrialResult;
    if (early === null) {
      child = await trial(input, childReady, scratch, "child");
      parent = await runParent();
    } else {
      const bareRun = settle(runParent());
      const c = await early;
      early = null;
      if (!c.ok) {
        stop.abort(new Error("the child's trial failed"));
        await bareRun;
        throw c.error;
      }
      child = c.value;
      parent = unsettle(await bareRun);
    }
    if (child.reward !== 1)
      out.push(diag("oracle-fails", null, `the child's oracle scored ${describe(child)}`));
    if (parent.reward === 1) {
      out.push(
        diag(
          "no-change",
          null,
          `the ${label}'s oracle alone still scores R = 1.0 in the child: the update changed nothing it needs`,
        ),
      );
    }
    return checkResult(
      "oracle",
      out,
      `child oracle R = ${child.reward}; ${label} oracle alone R ${bare(parent)}`,
      true,
    );
  } finally {
    if (early !== null) {
      // Returned or failed before the child's trial was read: it stops, and is waited for, before
      // its folder goes.
      stop.abort(new Error("the oracle check ended"));
      await early;
    }
    release();
    // For a task author finding out why a child's oracle fails: the trials' folders are kept.
    const keep = process.env.LONGHAUL_RES_KEEP_TRIALS;
    if (keep !== undefined && keep !== "") {
      cpSync(scratch, join(keep, `${basename(input.childDir)}-${Date.now()}`), { recursive: true });
    }
    // Not rmSync: the trials' folders take a while to remove, and the restore check (run beside
    // this one) and other chains go on meanwhile.
    await rm(scratch, { recursive: true, force: true });
  }
}

export type Ready = Extract<Awaited<ReturnType<typeof prepareTask>>, { ok: true }>;

/** The task ready to run (image built or found), or why it cannot run at all. */
export async function prepare(
  dir: string,
  scratch: string,
  label: string,
  images?: ImageMemo,
): Promise<Ready | string> {
  let task: Awaited<ReturnType<typeof loadTask>>;
  try {
    task = await loadTask(dir);
  } catch (e) {
    return `${label} task does not load: ${errorMessage(e)}`;
  }
  // Only a Dockerfile's image is known by its environment's checksum (a named one may be re-pulled).
  const key =
    images !== undefined && task.image !== null && task.image.dockerImage === null
      ? await envChecksum(task.paths.environment)
      : null;
  const known = key === null ? undefined : images?.get(key);
  const ready =
    known !== undefined ? overImage(task, known) : await prepareTask(task, join(scratch, "images"));
  if (ready.ok && ready.image !== null && key !== null) images?.set(key, ready.image);
  return ready.ok ? ready : `${label} task cannot run: ${ready.error}`;
}

/** Why the oracle agent could not run solution/solve.sh from this folder, or null when it can. */
function solutionUnreadable(dir: string): string | null {
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a folder`;
    accessSync(join(dir, "solve.sh"), constants.R_OK);
    return null;
  } catch (e) {
    return errorMessage(e);
  }
}

/**
 * A child's image that cannot be built is the child's fault only when its parent's own image
 * builds: when that fails too (no registry, no Docker, a base image gone), no child could pass,
 * and discarding this one would end the chain for a reason that is not the transforms'.
 */
async function parentMustBuild(parentDir: string, scratch: string): Promise<void> {
  let task: Awaited<ReturnType<typeof loadTask>>;
  try {
    task = await loadTask(parentDir);
  } catch {
    return; // A parent that does not load is reported by the checks that read it.
  }
  if (task.image === null) return;
  const ready = await prepareTask(task, join(scratch, "parent-images"));
  if (ready.ok) return;
  throw new InfraError(
    `the oracle trials cannot run: the parent's own image cannot be built either, so the child is not at fault: ${ready.error}`,
  );
}

/** What an oracle trial of the verifier runs with (the root's own check too). */
export type OracleTrialInput = Pick<OracleCheckInput, "provider" | "seed" | "timeoutMultiplier" | "signal">;

export async function trial(
  input: OracleTrialInput,
  ready: Ready,
  scratch: string,
  label: string,
  stopAtFirstFailure = false,
): Promise<TrialResult> {
  const seed = input.seed ?? 1000;
  return runTrial({
    jobId: "res-verify",
    trialId: `${label}-oracle-${seed}`,
    trialDir: join(scratch, `${label}-trial`),
    task: ready.task,
    image: ready.image,
    agent: "oracle",
    agentOptions: {},
    model: null,
    attempt: 1,
    seed,
    provider: input.provider,
    timeoutMultiplier: input.timeoutMultiplier ?? 1,
    signal: input.signal ?? new AbortController().signal,
    stopAtFirstFailure,
  });
}

/** The bare trial's reward: exact, or "< 1" when its grader stopped at the first failed subtask. */
function bare(r: TrialResult): string {
  if (r.reward === null) return "= null";
  const stopped = r.subtasks.some((s) => s.message?.includes("LONGHAUL_STOP_AT_FIRST_FAILURE") === true);
  return stopped ? "< 1 (its grader stopped at the first failed subtask)" : `= ${r.reward}`;
}

function describe(r: TrialResult): string {
  const why = r.error?.message ?? r.grading_errors.join("; ");
  return `R = ${r.reward ?? "null"} (${r.outcome}${why ? `: ${why.slice(0, 300)}` : ""})`;
}
