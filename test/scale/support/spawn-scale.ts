import { type ChildProcess, spawn } from "node:child_process";
import { CLI, ROOT } from "../../support/cli-process.js";

/**
 * `longhaul scale ARGS` in a process of its own, stderr collected, so a signal reaches the command.
 * It runs the built CLI (npm test builds first), as test/support/cli-process.ts does: starting tsx
 * on the sources cost 2-3 s of CPU more per process.
 */
export function spawnScale(args: string[]): {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  // One process (no wrapper that forks a child) so that the signal reaches the command.
  const child = spawn(process.execPath, [CLI, "scale", ...args], {
    cwd: ROOT,
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exit = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, stderr: () => err, exit };
}

export async function waitFor(cond: () => boolean, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
