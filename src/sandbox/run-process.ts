import { type ChildProcess, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { timerMs } from "../core/timer.js";
import { sandboxStdio } from "./inherited-fds.js";
import type { ExecResult } from "./types.js";

export interface RunRequest {
  argv: readonly string[];
  env: Record<string, string>;
  stdin?: string;
  timeoutSec?: number;
  signal?: AbortSignal;
  maxOutputBytes: number;
  /** Called once the launcher reports that the sandbox is up. */
  onStart?: () => void;
}

export interface RunOutcome extends ExecResult {
  /** The launcher reported on fd 3 that the sandbox came up. */
  started: boolean;
  /** Set when the process could not be spawned at all (e.g. ENOENT). */
  spawnError: Error | null;
}

/** A running process group that can be killed from outside (killAll). */
export interface RunningHandle {
  kill(): void;
  readonly done: Promise<unknown>;
}

/** After a kill, how long to wait for the pipes to close before giving up on them. */
const CLOSE_GRACE_MS = 5_000;

/** Bounded capture of one output stream: keeps draining after the cap so the writer never blocks. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // The child leads its own process group (detached), so this reaches bwrap and its wrapper.
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * Runs one sandbox process in its own process group, capturing output under a cap, with a
 * timeout and an abort signal that SIGKILL the whole group. Resolves when every pipe has closed
 * (so every process holding them is gone), never rejects.
 */
export function runProcess(req: RunRequest, register: (h: RunningHandle) => () => void): Promise<RunOutcome> {
  const t0 = performance.now();
  const out = new Capture(req.maxOutputBytes);
  const err = new Capture(req.maxOutputBytes);
  let started = false;
  let killedBy: "timeout" | "abort" | "kill" | null = null;
  let spawnError: Error | null = null;

  const [cmd, ...args] = req.argv;
  const child = spawn(cmd ?? "/nonexistent", args, {
    env: req.env,
    detached: true,
    stdio: sandboxStdio(["pipe", "pipe", "pipe", "pipe"]),
  });
  const marker = child.stdio[3] as Readable | null;
  marker?.on("data", () => {
    if (started) return;
    started = true;
    req.onStart?.();
  });
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => err.push(c));
  // A command that does not read its stdin closes the pipe early; that is not an error.
  child.stdin?.on("error", () => undefined);
  child.stdin?.end(req.stdin ?? "");

  let resolveDone: (v: RunOutcome) => void = () => undefined;
  const done = new Promise<RunOutcome>((r) => {
    resolveDone = r;
  });
  let graceTimer: NodeJS.Timeout | undefined;
  const kill = (why: "timeout" | "abort" | "kill"): void => {
    if (killedBy === null) killedBy = why;
    killGroup(child);
    graceTimer ??= setTimeout(() => {
      for (const s of child.stdio) s?.destroy();
    }, CLOSE_GRACE_MS);
  };

  // setTimeout fires at once for delays past 2^31-1 ms; longer limits are clamped to ~24.8 days.
  const timer =
    req.timeoutSec === undefined ? undefined : setTimeout(() => kill("timeout"), timerMs(req.timeoutSec));
  const onAbort = (): void => kill("abort");
  req.signal?.addEventListener("abort", onAbort, { once: true });
  if (req.signal?.aborted) kill("abort");
  const unregister = register({ kill: () => kill("kill"), done });

  let finished = false;
  const finish = (code: number | null, sig: NodeJS.Signals | null): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(graceTimer);
    req.signal?.removeEventListener("abort", onAbort);
    unregister();
    const killed = killedBy !== null;
    resolveDone({
      exitCode: killed ? null : code,
      signal: killed ? "SIGKILL" : sig,
      stdout: out.text(),
      stderr: err.text(),
      timedOut: killedBy === "timeout",
      truncated: out.truncated || err.truncated,
      durationSec: (performance.now() - t0) / 1000,
      started,
      spawnError,
    });
  };
  child.on("error", (e) => {
    spawnError = e;
    if (child.pid === undefined) finish(null, null);
  });
  child.on("close", (code, sig) => finish(code, sig));
  return done;
}
