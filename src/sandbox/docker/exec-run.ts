import { InfraError } from "../../core/errors.js";
import { timerMs } from "../../core/timer.js";
import { lastLines } from "../image/docker-cli.js";
import { type RunningHandle, runProcess } from "../run-process.js";
import type { parseExecOptions } from "../spec.js";
import type { ExecResult } from "../types.js";
import { dockerBin } from "./proc.js";

export type ParsedExecOptions = ReturnType<typeof parseExecOptions>;

/** Ends one exec's processes; `done` tells whether the exec has ended meanwhile. */
export type ExecKiller = (done: () => boolean) => Promise<void>;

export interface ExecRunContext {
  /** The sandbox's id, for messages. */
  id: string;
  /** The sandbox's execs that are running: killAll kills each. */
  running: Set<RunningHandle>;
}

/**
 * Runs `docker ARGS` (a `docker exec` in the sandbox's container or a `docker run` of a fresh
 * one) as one exec: its timeout, abort signal and killAll go through `killer`, which ends the
 * exec's processes inside docker, since killing the client would leave them running there.
 */
export async function runDockerExec(
  ctx: ExecRunContext,
  args: readonly string[],
  o: ParsedExecOptions,
  killer: ExecKiller,
): Promise<ExecResult> {
  const controller = new AbortController();
  let why: "timeout" | "abort" | "kill" | null = null;
  let killing: Promise<void> | null = null;
  const kill = (reason: "timeout" | "abort" | "kill"): Promise<void> => {
    why ??= reason;
    killing ??= killer(() => finished).finally(() => controller.abort());
    return killing;
  };
  let finished = false;
  const timer =
    o.timeoutSec === undefined ? undefined : setTimeout(() => void kill("timeout"), timerMs(o.timeoutSec));
  const onAbort = (): void => void kill("abort");
  o.signal?.addEventListener("abort", onAbort, { once: true });
  if (o.signal?.aborted) void kill("abort");
  try {
    const r = await runProcess(
      {
        argv: [dockerBin(), ...args],
        env: hostEnv(),
        stdin: o.stdin,
        signal: controller.signal,
        maxOutputBytes: o.maxOutputBytes,
      },
      (h) => {
        const handle: RunningHandle = { kill: () => void kill("kill"), done: h.done };
        ctx.running.add(handle);
        return () => ctx.running.delete(handle);
      },
    );
    finished = true;
    if (r.spawnError !== null) {
      throw new InfraError(`could not run docker: ${r.spawnError.message}`, { cause: r.spawnError });
    }
    if (why === null && (r.exitCode === 125 || r.exitCode === 126 || r.exitCode === 127)) {
      // The client's own failures (container gone, exec refused) never reach the wrapper.
      if (/Error response from daemon|OCI runtime|is not running/.test(r.stderr)) {
        throw new InfraError(`sandbox ${ctx.id}: docker ${args[0]} failed: ${lastLines(r.stderr, 3)}`);
      }
    }
    const { started: _s, spawnError: _e, ...result } = r;
    await killing;
    if (why === null) return result;
    return { ...result, exitCode: null, signal: "SIGKILL", timedOut: why === "timeout" };
  } finally {
    finished = true;
    clearTimeout(timer);
    o.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Per-exec mounts and fresh folders are made inside the sandbox's own folders, on its disk
 * quota: a quota the agent filled leaves no room. That must not abort the job (a plain Error
 * would), so it is an InfraError.
 */
export function quotaFull(id: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOSPC" || code === "EDQUOT")
    return new InfraError(
      `sandbox ${id}: its disk quota is full, so this command's mounts cannot be staged (${code})`,
      { cause: e },
    );
  return e;
}

/** The docker client's own environment (DOCKER_HOST and the like), never the sandbox's. */
export function hostEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}
