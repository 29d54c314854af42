import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/package-root.js";
import { detectProgram } from "../../src/scale/channel/detect-program.js";

/**
 * The bundled tasks whose grader talks to the agent's program over its standard input. In a RES
 * child every line the program reads is transformed, and the verifier shows that the root's bare
 * oracle fails there. An oracle that skips lines it cannot read waits for ever, and the grader
 * then waits out its whole stall limit (20–30 s) before it scores the failure: that wait was most
 * of such a child's verification. The oracles stop at the first line they cannot read instead.
 */
const STREAM_TASKS = readdirSync(bundledTasksDir())
  .sort()
  .flatMap((name) => {
    const dir = join(bundledTasksDir(), name);
    const found = detectProgram(join(dir, "tests"), "/app");
    return found?.inputKind === "stream"
      ? [{ name, oracle: join(dir, "solution", posix.basename(found.program)) }]
      : [];
  });

/** Runs `file` with one line on a standard input left open, as a referee waiting for an answer does. */
function exitOnLine(
  file: string,
  line: string,
  waitMs: number,
): Promise<{ code: number | null; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("/usr/bin/python3", [file], { stdio: ["pipe", "ignore", "ignore"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), waitMs);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - t0 });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.write(`${line}\n`);
  });
}

describe("interactive bundled oracles stop at a line they cannot read", () => {
  it("finds the interactive tasks", () => {
    expect(STREAM_TASKS.map((t) => t.name)).toEqual(
      expect.arrayContaining(["codebreak-audit", "haul-fleet", "lander-pilot", "thermal-zone-control"]),
    );
    for (const t of STREAM_TASKS) expect(existsSync(t.oracle), t.oracle).toBe(true);
  });

  // What the first line of any of these protocols looks like behind a line-base64 channel step.
  const garbled = Buffer.from("INIT 1 2 3").toString("base64");
  it.each(STREAM_TASKS)("$name: the oracle exits with an error, not waiting for more", async ({ oracle }) => {
    const r = await exitOnLine(oracle, garbled, 10_000);
    expect(r.code, `${oracle} was still waiting after ${Math.round(r.ms)} ms`).not.toBeNull();
    expect(r.code).not.toBe(0);
  });
});
