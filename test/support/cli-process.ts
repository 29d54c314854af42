import { type ChildProcess, execFile, spawn } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";

export const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");
/** The repository root, where the CLI runs unless told otherwise. */
export const ROOT = resolve(import.meta.dirname, "../..");

/** How a `longhaul` run ended: exit code and both streams in full. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const execFileP = promisify(execFile);

/**
 * Runs the built CLI to its exit (npm test builds first: starting tsx for every call would
 * dominate the time of the tests that make many). A failing exit is returned, not thrown.
 */
export async function runCli(
  args: string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  try {
    const r = await execFileP(process.execPath, [CLI, ...args], {
      cwd: o.cwd ?? ROOT,
      env: o.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** A `longhaul` process of the built CLI, its output collected as it comes. */
export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /**
   * Resolves once stderr holds a match (or rejects after timeoutMs). The default is for a start-up
   * line: a worker's start (node, the CLI's modules, the sandbox check's scan of /usr) took 12 s
   * at load 15 on 2 cores, and more beside a job's sandboxes.
   */
  waitFor: (re: RegExp, timeoutMs?: number) => Promise<void>;
  kill9: () => Promise<void>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", ...env },
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((res) => child.once("exit", (code) => res(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: async (re, timeoutMs = 60_000) => {
      const until = Date.now() + timeoutMs;
      while (!re.test(err)) {
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before ${re}:\n${err}`);
        if (Date.now() > until) throw new Error(`timed out waiting for ${re}:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    kill9: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/**
 * Polls until `count()` reaches `target`; throws once it has not grown for `stallMs`. A bound on
 * progress, not on the whole wait: a loaded host is slow but moves, a hang does not.
 */
export async function untilCount(
  count: () => number | Promise<number>,
  target: number,
  stallMs: number,
  what: string,
): Promise<number> {
  let last = await count();
  let lastChange = Date.now();
  while (last < target) {
    if (Date.now() - lastChange > stallMs) {
      throw new Error(`timed out: ${what} (stuck at ${last} of ${target} for ${stallMs / 1000} s)`);
    }
    await new Promise((r) => setTimeout(r, 100));
    const now = await count();
    if (now > last) lastChange = Date.now();
    last = now;
  }
  return last;
}

/** Polls until `cond` holds (or throws after timeoutMs). */
export async function until(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
