import { spawn } from "node:child_process";

/** How a short host command (mount, mkfs, cp, find…) ended. */
export interface HostCommandResult {
  /** Exit code; null when it was killed or could not start. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout as the bytes it was (a listing of paths that need not be UTF-8). */
  stdoutBytes: Buffer;
  /** Set when it could not be spawned (e.g. ENOENT), ran past its time, or wrote past its cap. */
  error: Error | null;
  /** It could not be spawned at all (`error` says why). */
  spawnFailed: boolean;
}

export interface HostCommandOptions {
  /** Killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Written to its stdin, which is then closed (default: no stdin). */
  input?: string | Buffer;
  /** Whether to keep its output (default true); false sends both streams to /dev/null. */
  capture?: boolean;
  /** Killed (SIGKILL), with `error` set, once its stdout passes this many bytes. */
  maxStdoutBytes?: number;
}

/**
 * Runs a host command without blocking the event loop. A sandbox's set-up and clean-up (the
 * quota's mkfs and mount, an image root's overlay, the workdir's repairs) ran with spawnSync: the
 * whole process stopped for each, so trials run side by side (`run -n`, a lineage child's two
 * oracle trials and its restore check) waited on each other's mounts instead of going on.
 */
export function runHostCommand(argv: readonly string[], o: HostCommandOptions): Promise<HostCommandResult> {
  const [cmd, ...args] = argv;
  const capture = o.capture ?? true;
  return new Promise((resolve) => {
    const child = spawn(cmd ?? "false", args, {
      stdio: [
        o.input === undefined ? "ignore" : "pipe",
        capture ? "pipe" : "ignore",
        capture ? "pipe" : "ignore",
      ],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let failure: Error | null = null;
    let spawnFailed = false;
    child.stdout?.on("data", (c: Buffer) => {
      outBytes += c.length;
      if (o.maxStdoutBytes !== undefined && outBytes > o.maxStdoutBytes) {
        if (failure === null) failure = new Error(`output over ${o.maxStdoutBytes} bytes`);
        child.kill("SIGKILL");
        return;
      }
      out.push(c);
    });
    child.stderr?.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => {
      if (failure === null) failure = new Error(`timed out after ${o.timeoutMs} ms`);
      child.kill("SIGKILL");
    }, o.timeoutMs);
    child.on("error", (e) => {
      failure = e;
      spawnFailed = true;
    });
    if (o.input !== undefined && child.stdin !== null) {
      // A command that exits without reading all of it closes the pipe: not an error here.
      child.stdin.on("error", () => {});
      child.stdin.end(o.input);
    }
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({
        status,
        signal,
        stdoutBytes,
        stdout: stdoutBytes.toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        error: failure,
        spawnFailed,
      });
    });
  });
}

/** Runs it; null when it exited 0, else why not (its stderr, its stdout, or its exit). */
export async function hostCommandError(argv: readonly string[], timeoutMs: number): Promise<string | null> {
  const r = await runHostCommand(argv, { timeoutMs });
  if (r.error !== null) return r.error.message;
  if (r.status !== 0)
    return (r.stderr || r.stdout || (r.signal ? `killed by ${r.signal}` : `exit ${r.status}`)).trim();
  return null;
}
