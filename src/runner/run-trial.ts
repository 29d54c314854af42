import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../agents/index.js";
import type { AgentRunResult } from "../agents/types.js";
import {
  emptyUsage,
  errorMessage,
  InfraError,
  isLonghaulError,
  type Outcome,
  type TrialResult,
  timerMs,
  UserError,
} from "../core/index.js";
import { scoreTrial } from "../grading/reward.js";
import type { ImageRef } from "../sandbox/image/types.js";
import { removeTreeAsync } from "../sandbox/remove-tree.js";
import type { Sandbox, SandboxProvider } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { collectLogs } from "./collect-logs.js";
import { type ContinuationTracker, createContinuation } from "./continuation.js";
import { trialStateDir } from "./state-dir.js";
import { agentEnv, withEnv } from "./task-env.js";
import {
  budgetOutcome,
  startTrialGateway,
  type TrialGateway,
  throwOnFault,
  usageWithGateway,
} from "./trial-gateway.js";
import { round3, trialHeader } from "./trial-header.js";
import { TrialInterrupted } from "./trial-interrupted.js";
import { getTrialKind } from "./trial-kinds.js";
import { verifierLogsErrors } from "./verifier-logs.js";
import { verifierFreshDirs } from "./verifier-mounts.js";
import { runVerifierPhase } from "./verifier-phase.js";
import { judgeVerifier } from "./verifier-verdict.js";
import { restoreWorkdirAccess } from "./workdir-access.js";
import { removeVerifierLinks } from "./workdir-links.js";

export interface TrialParams {
  jobId: string;
  trialId: string;
  trialDir: string;
  task: Task;
  agent: string;
  agentOptions: Record<string, string>;
  model: string | null;
  attempt: number;
  seed: number;
  provider: SandboxProvider;
  timeoutMultiplier: number;
  /** Aborted when the whole job is stopping: the trial is abandoned, not recorded. */
  signal: AbortSignal;
  /** Continue-until-timeout mode: a declared completion is checked against the public subtasks. */
  untilTimeout?: boolean;
  log?: (line: string) => void;
  /**
   * The task's image (from prepareTask, which also settles the workdir); null or absent for a
   * host task. An image task without one cannot run.
   */
  image?: ImageRef | null;
  /** Seed the workdir from this host folder instead of the task (continuation's snapshot checks). */
  workdirFrom?: string;
  /**
   * The caller only asks whether R < 1 (RES verification's bare-oracle trial): the verifier gets
   * LONGHAUL_STOP_AT_FIRST_FAILURE=1, and a grader that honours it (the verifier kit lh.py) stops
   * after the first weighted subtask below 1. The reward is then a lower bound, below 1 exactly
   * when the full run's is. Never for a scored trial.
   */
  stopAtFirstFailure?: boolean;
  /**
   * The caller only asks whether R < this (task check's mutant sample): the verifier gets
   * LONGHAUL_STOP_BELOW, and a grader that honours it (lh.py) stops once the weight already lost
   * makes R ≥ this impossible. The reward is then a lower bound, below this exactly when the full
   * run's is. Never for a scored trial.
   */
  stopBelow?: number;
}

export { TrialInterrupted };

/** Seconds an agent gets after its budget to wind down before its processes are killed. */
const AGENT_GRACE_SEC = 5;

/**
 * One trial: fresh sandbox → agent phase → every agent process killed → verifier with /tests →
 * collect logs → score on the host. Infrastructure failures throw InfraError (the job retries);
 * everything the agent or verifier did wrong becomes an outcome in the returned result.
 */
export async function runTrial(p: TrialParams): Promise<TrialResult> {
  // Tasks of another kind (a world task) run their own kind of trial; it returns the same result.
  if (p.task.kind !== undefined && p.task.kind !== "terminal") {
    const kind = getTrialKind(p.task.kind);
    mkdirSync(p.trialDir, { recursive: true });
    return kind.run(p);
  }
  const started = new Date();
  const t0 = performance.now();
  const agent = createAgent(p.agent, p.agentOptions);
  const env = p.task.config.environment;
  const stateDir = trialStateDir(p.trialId);
  mkdirSync(p.trialDir, { recursive: true });
  const agentLogDir = join(p.trialDir, "agent");
  const verifierDir = join(p.trialDir, "verifier");
  mkdirSync(agentLogDir, { recursive: true });
  mkdirSync(verifierDir, { recursive: true });

  if (p.task.image !== null && !p.image) {
    throw new UserError(`task ${p.task.name} is an image task but no image was prepared for it`);
  }
  // The gateway and the agent's binds come first: the sandbox is made with them (docker binds
  // only at creation, and its per-exec copies cannot carry the gateway's unix socket).
  const gateway = await startTrialGateway({ ...p, agentLogDir });
  let sandbox: Sandbox;
  try {
    const mounts =
      (await agent.sandboxMounts?.({
        ...(gateway ? { modelEndpoint: gateway.gateway.endpoint } : {}),
        options: p.agentOptions,
        log: p.log ?? (() => undefined),
        signal: p.signal,
      })) ?? [];
    sandbox = await p.provider.create({
      // An image task's environment/ is its build context: its workdir comes from the image.
      environmentDir:
        p.workdirFrom ??
        (p.task.image === null && existsSync(p.task.paths.environment) ? p.task.paths.environment : null),
      image: p.image ?? null,
      workdir: env.workdir,
      memoryMb: env.memory_mb,
      cpus: env.cpus,
      pidsMax: 4096,
      allowInternet: env.allow_internet,
      storageMb: env.storage_mb,
      stateDir,
      nesting: p.task.config.requires.nested_sandbox,
      // Over an image the agent runs as `[agent] user` (looked up in the image), else its USER.
      user: p.task.image === null ? null : p.task.config.agent.user,
      ...(mounts.length > 0 ? { mounts } : {}),
    });
  } catch (e) {
    await gateway?.release();
    await removeTreeAsync(stateDir);
    if (isLonghaulError(e) && e.kind === "user") throw e;
    throw e instanceof InfraError
      ? e
      : new InfraError(`sandbox would not start: ${errorMessage(e)}`, { cause: e });
  }
  try {
    const setupSec = (performance.now() - t0) / 1000;

    // Agent phase.
    const agentTimeoutSec = p.task.config.agent.timeout_sec * p.timeoutMultiplier;
    const tAgent = performance.now();
    const continuation = p.untilTimeout
      ? createContinuation({
          sandbox,
          task: p.task,
          elapsedSec: () => (performance.now() - tAgent) / 1000,
          verifySnapshot: (snapshot, label) => verifySnapshot(p, snapshot, label),
        })
      : null;
    // [environment.env] reaches every exec of the agent phase ([solution.env] too for the oracle).
    const agentSandbox = withEnv(sandbox, agentEnv(p.task, p.agent));
    const phase = await runAgentPhase(
      p,
      agent,
      agentSandbox,
      agentTimeoutSec,
      agentLogDir,
      continuation,
      gateway,
    );
    await sandbox.killAll();
    if (p.signal.aborted) throw new TrialInterrupted(p.trialId);
    // The agent's processes are gone: no call can reach the gateway any more.
    await gateway?.gateway.close();
    throwOnFault(gateway);
    const agentSec = (performance.now() - tAgent) / 1000;
    // /logs/agent is saved now, while only the agent has written there: the verifier (which sees
    // /tests and the seed) runs later and nothing it writes under /logs/agent is ever collected.
    await collectLogs(sandbox, "/logs/agent", join(agentLogDir, "logs"), agentLogDir);
    await restoreWorkdirAccess(sandbox, env.workdir);
    const cut = await removeVerifierLinks(sandbox, env.workdir, verifierFreshDirs(env.workdir));
    if (cut.length > 0) writeFileSync(join(verifierDir, "removed-links.txt"), `${cut.join("\n")}\n`);

    // Verification: fresh /logs/verifier, tests mounted only now, seed only here.
    const { verify, files, logsOver, stray, verifierSec, verifierTimeoutSec } = await runVerifierPhase(
      p,
      sandbox,
      verifierDir,
    );

    const scored = scoreTrial({
      rewardJson: files.rewardJson,
      rewardTxt: files.rewardTxt,
      detailsJson: files.detailsJson,
      rubric: p.task.rubric,
    });
    // Harbor metrics have no field in TrialResult yet: they are kept beside the verifier's logs.
    if (scored.metrics !== null) {
      writeFileSync(join(verifierDir, "metrics.json"), `${JSON.stringify(scored.metrics, null, 2)}\n`);
    }
    const verdict = judgeVerifier(verify, verifierTimeoutSec, files, scored.failed ? null : scored.reward);
    const logsError = verifierLogsErrors(logsOver, stray);
    const gradingFailed = verdict.failed || scored.failed || logsOver !== null;
    const gradingErrors = [...logsError, ...verdict.errors, ...scored.gradingErrors];

    const budget = gradingFailed ? null : budgetOutcome(gateway);
    const outcome: Outcome = gradingFailed
      ? "grading_error"
      : budget !== null
        ? budget.outcome
        : phase.error !== undefined
          ? "agent_error"
          : phase.timedOut
            ? "agent_timeout"
            : "completed";
    const finished = new Date();
    const selfTerminated = phase.result?.selfTerminated === true && !phase.timedOut;
    return {
      ...trialHeader(p),
      timing: {
        started_at: started.toISOString(),
        finished_at: finished.toISOString(),
        setup_sec: round3(setupSec),
        agent_sec: round3(agentSec),
        verifier_sec: round3(verifierSec),
        verifier_command_sec: round3(verify.durationSec),
        total_sec: round3((performance.now() - t0) / 1000),
      },
      outcome,
      self_terminated: selfTerminated,
      reward: gradingFailed ? null : scored.reward,
      subtasks: gradingFailed ? scored.subtasks.map((s) => ({ ...s, score: 0 })) : scored.subtasks,
      grading_errors: gradingErrors,
      usage: usageWithGateway({ ...emptyUsage(), ...(phase.result?.usage ?? {}) }, gateway),
      infra_retries: 0,
      error:
        budget !== null
          ? budget.error
          : phase.error !== undefined
            ? { kind: "agent", message: phase.error }
            : gradingFailed
              ? { kind: "grading", message: gradingErrors[0] ?? "verifier wrote no reward" }
              : null,
      stress_digest: stressDigestOf(files.detailsJson),
      budget_left_sec: selfTerminated ? round3(Math.max(0, agentTimeoutSec - agentSec)) : null,
      continuation: continuation?.record() ?? null,
      world: null,
    };
  } finally {
    await gateway?.gateway.close().catch(() => undefined);
    await sandbox.close().catch(() => undefined);
    await gateway?.release();
    await removeTreeAsync(stateDir);
  }
}

interface AgentPhase {
  result: AgentRunResult | null;
  timedOut: boolean;
  error?: string;
}

async function runAgentPhase(
  p: TrialParams,
  agent: ReturnType<typeof createAgent>,
  sandbox: Sandbox,
  timeoutSec: number,
  logDir: string,
  continuation: ContinuationTracker | null,
  gateway: TrialGateway | null,
): Promise<AgentPhase> {
  const budget = new AbortController();
  const onJobAbort = (): void => budget.abort(p.signal.reason);
  p.signal.addEventListener("abort", onJobAbort, { once: true });
  // The upstream failing past every retry ends the phase at once; the trial is then retried.
  const onFault = (): void => budget.abort(gateway?.fault.reason);
  gateway?.fault.addEventListener("abort", onFault, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    budget.abort(new Error("agent timeout"));
  }, timerMs(timeoutSec));
  // An agent that ignores its abort signal is cut off after a short grace period.
  let graceTimer: NodeJS.Timeout | undefined;
  const hardStop = new Promise<"hard-stop">((resolve) => {
    budget.signal.addEventListener("abort", () => {
      graceTimer = setTimeout(() => resolve("hard-stop"), AGENT_GRACE_SEC * 1000);
    });
  });
  try {
    const run = agent.run({
      task: p.task,
      sandbox,
      instruction: p.task.instruction,
      model: p.model,
      timeoutSec,
      signal: budget.signal,
      logDir,
      log: p.log ?? (() => undefined),
      options: p.agentOptions,
      ...(continuation ? { onDone: continuation.onDone } : {}),
      ...(gateway ? { modelEndpoint: gateway.gateway.endpoint } : {}),
    });
    const result = await Promise.race([run, hardStop]);
    if (result === "hard-stop") return { result: null, timedOut };
    if (timedOut || result.budgetExhausted === true) return { result, timedOut: true };
    return result.error !== undefined ? { result, timedOut, error: result.error } : { result, timedOut };
  } catch (e) {
    if (p.signal.aborted) throw new TrialInterrupted(p.trialId);
    // The gateway's fault is the cause; the trial's caller reports it (throwOnFault).
    if (gateway?.fault.aborted) return { result: null, timedOut: false };
    if (e instanceof InfraError || e instanceof UserError) throw e;
    if (timedOut) return { result: null, timedOut };
    return { result: null, timedOut, error: errorMessage(e) };
  } finally {
    clearTimeout(timer);
    if (graceTimer) clearTimeout(graceTimer);
    p.signal.removeEventListener("abort", onJobAbort);
    gateway?.fault.removeEventListener("abort", onFault);
  }
}

/**
 * Verifies a copy of the agent's workdir as a separate trial: a fresh sandbox seeded from the
 * copy, the nop agent, then the same verifier with the same hidden seed. No process of the agent
 * exists there, so the check cannot be steered by what it left running.
 */
function verifySnapshot(p: TrialParams, snapshotDir: string, label: string): Promise<TrialResult> {
  return runTrial({
    ...p,
    trialId: `${p.trialId}-${label}`,
    trialDir: join(p.trialDir, "stops", label),
    workdirFrom: snapshotDir,
    agent: "nop",
    agentOptions: {},
    untilTimeout: false,
  });
}

/** The verifier's record of which hidden inputs it generated (reward-details.json `stress_digest`). */
export function stressDigestOf(detailsJson: string | null): string | null {
  if (detailsJson === null) return null;
  try {
    const parsed: unknown = JSON.parse(detailsJson);
    if (typeof parsed === "object" && parsed !== null && "stress_digest" in parsed) {
      const d = parsed.stress_digest;
      return typeof d === "string" && d.length > 0 && d.length <= 200 ? d : null;
    }
  } catch {
    return null;
  }
  return null;
}
