import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

export const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");

/** A `longhaul` process of the built CLI, its output collected as it comes. */
export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves once stderr holds a match (or rejects after timeoutMs). */
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
    waitFor: async (re, timeoutMs = 20_000) => {
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
