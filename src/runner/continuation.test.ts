import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdtempSync, openSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InfraError } from "../core/errors.js";
import type { Sandbox } from "../sandbox/types.js";
import type { Task } from "../task/types.js";
import { apparentBytesOver, createContinuation } from "./continuation.js";

function deps(dir: string, verify: () => Promise<never>) {
  let downloads = 0;
  let checks = 0;
  const sandbox = {
    hostPathOf: (p: string) => (p === "/app" ? dir : null),
    download: async () => {
      downloads++;
    },
  } as unknown as Sandbox;
  const task = { config: { environment: { workdir: "/app", storage_mb: 1 } } } as unknown as Task;
  const tracker = createContinuation({
    sandbox,
    task,
    elapsedSec: () => 1,
    verifySnapshot: () => {
      checks++;
      return verify();
    },
  });
  return { tracker, counts: () => ({ downloads, checks }) };
}

describe("continue-until-timeout checks", () => {
  it("does not copy a workdir whose sparse files claim more than the disk quota", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-cont-"));
    const fd = openSync(join(dir, "big"), "w");
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
    expect(apparentBytesOver(dir, 1024 * 1024)).toBe(true);
    const d = deps(dir, () => Promise.reject(new Error("not reached")));
    expect(await d.tracker.onDone()).toEqual({ accept: true });
    expect(d.counts()).toEqual({ downloads: 0, checks: 0 });
  });

  it("lets the agent stop when the check itself fails on the host", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-cont-"));
    writeFileSync(join(dir, "out.txt"), "small\n");
    expect(apparentBytesOver(dir, 1024 * 1024)).toBe(false);
    const d = deps(dir, () => Promise.reject(new InfraError("no space left on device")));
    expect(await d.tracker.onDone()).toEqual({ accept: true });
    expect(d.counts()).toEqual({ downloads: 1, checks: 1 });
  });

  it("does not copy a workdir whose files lie deeper than the host can name (a sparse file there)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "longhaul-test-cont-"));
    // 25 levels of 200-byte names, made by relative names as an agent can: the walk by path
    // threw ENAMETOOLONG out of the agent's declaration of completion, and could not measure it.
    const d = "d".repeat(200);
    const made = spawnSync(
      "bash",
      ["-c", `for i in $(seq 25); do mkdir ${d} && cd ${d}; done; truncate -s 300M big`],
      { cwd: dir },
    );
    expect(made.status).toBe(0);
    expect(apparentBytesOver(dir, 1024 * 1024)).toBe(true);
    const c = deps(dir, () => Promise.reject(new Error("not reached")));
    expect(await c.tracker.onDone()).toEqual({ accept: true });
    expect(c.counts()).toEqual({ downloads: 0, checks: 0 });
    spawnSync("rm", ["-rf", dir]);
  });
});
