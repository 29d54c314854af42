import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeVerifierLinks } from "../../src/runner/workdir-links.js";
import { hostCommandError, runHostCommand } from "../../src/sandbox/host-command.js";
import { removeTreeAsync } from "../../src/sandbox/remove-tree.js";
import type { Sandbox } from "../../src/sandbox/types.js";

const scratch = mkdtempSync(join(tmpdir(), "longhaul-test-host-command-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder holding `n` empty files (made by xargs touch, not by this process). */
function flood(name: string, n: number): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  spawnSync("sh", ["-c", `seq ${n} | xargs touch`], { cwd: dir });
  return dir;
}

/** How many 1 ms timer ticks ran while `work` was pending: 0 when it held the process the whole time. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const t = setInterval(() => ticks++, 1);
  try {
    await work();
  } finally {
    clearInterval(t);
  }
  return ticks;
}

describe("runHostCommand", () => {
  it("returns status, both streams, and stdout as bytes", async () => {
    const r = await runHostCommand(["sh", "-c", "printf 'a\\377'; echo err >&2; exit 3"], {
      timeoutMs: 10_000,
    });
    expect(r.status).toBe(3);
    expect(r.error).toBeNull();
    expect([...r.stdoutBytes]).toEqual([0x61, 0xff]);
    expect(r.stderr).toBe("err\n");
  });

  it("feeds stdin, kills on timeout and past the output cap, and reports a missing command", async () => {
    expect((await runHostCommand(["cat"], { timeoutMs: 10_000, input: "in\n" })).stdout).toBe("in\n");
    const slow = await runHostCommand(["sleep", "30"], { timeoutMs: 200 });
    expect(slow.signal).toBe("SIGKILL");
    expect(slow.error?.message).toMatch(/timed out/);
    const big = await runHostCommand(["yes"], { timeoutMs: 10_000, maxStdoutBytes: 1 << 16 });
    expect(big.error?.message).toMatch(/output over 65536 bytes/);
    expect(big.stdoutBytes.length).toBeLessThanOrEqual(1 << 16);
    expect(await hostCommandError(["no-such-command-longhaul"], 10_000)).toMatch(/ENOENT/);
    expect(await hostCommandError(["sh", "-c", "echo why >&2; exit 1"], 10_000)).toBe("why");
    expect(await hostCommandError(["true"], 10_000)).toBeNull();
  });
});

// Trials run side by side in one process: a clean-up that held the process (before, rmSync and
// spawnSync) stalled every other trial's timers and output for as long as it took.
describe("a sandbox's clean-up lets the process go on meanwhile", () => {
  it("removeTreeAsync removes a flood of files, timers ticking meanwhile", async () => {
    const dir = flood("rm-flood", 30_000);
    const ticks = await ticksDuring(() => removeTreeAsync(dir));
    expect(existsSync(dir)).toBe(false);
    expect(ticks).toBeGreaterThan(0);
    await removeTreeAsync(join(scratch, "never-made"));
  });

  it("removeTreeAsync reaches a tree deeper than a path can name", async () => {
    const top = join(scratch, "deep");
    mkdirSync(top);
    // 60 levels of 100-byte names: past PATH_MAX (4096) from the top.
    spawnSync(
      "sh",
      ["-c", `n=$(printf 'd%.0s' $(seq 100)); for i in $(seq 60); do mkdir "$n" && cd "$n"; done`],
      {
        cwd: top,
      },
    );
    await removeTreeAsync(top);
    expect(existsSync(top)).toBe(false);
  });

  it("the workdir's link check walks a flood of files with timers ticking meanwhile", async () => {
    const dir = flood("links-flood", 30_000);
    symlinkSync("/tests/expected.txt", join(dir, "answer"));
    const hostPathOf = (p: string): string | null =>
      p === "/app" ? dir : p.startsWith("/app/") ? join(dir, p.slice("/app/".length)) : null;
    const sandbox = { hostPathOf } as unknown as Sandbox;
    let removed: string[] = [];
    const ticks = await ticksDuring(async () => {
      removed = await removeVerifierLinks(sandbox, "/app");
    });
    expect(removed).toEqual(["answer"]);
    expect(ticks).toBeGreaterThan(0);
  });
});
