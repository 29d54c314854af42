import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sweepStaleSandboxes } from "../../src/sandbox/sweep.js";
import { tempDir } from "./helpers.js";

/** The pid of a process that has already exited. */
function deadPid(): number {
  const r = spawnSync("sh", ["-c", "echo $$"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

describe("the stale-state sweep a job runs at its start", () => {
  it("removes state folders of dead runners only", async () => {
    const tmp = tempDir("sweep");
    const dead = deadPid();
    const names = {
      dead: `longhaul-${dead}-hello__oracle__a1-m1abc`,
      own: `longhaul-${process.pid}-hello__oracle__a2-m1abd`,
      live: `longhaul-1-hello__nop__a1-m1abe`,
      other: "longhaul-test-resume-xyz",
      file: `longhaul-${dead}-not-a-folder`,
    };
    for (const n of [names.dead, names.own, names.live, names.other]) {
      mkdirSync(join(tmp, n, "app", "deep"), { recursive: true });
      writeFileSync(join(tmp, n, "app", "deep", "f.txt"), "x");
    }
    writeFileSync(join(tmp, names.file), "x");
    const removed = await sweepStaleSandboxes({
      tmpRoot: tmp,
      registryDir: join(tmp, "records"),
      cgroupRoot: null,
    });
    expect(removed.sort()).toEqual([join(tmp, names.dead), join(tmp, names.file)].sort());
    expect(existsSync(join(tmp, names.dead))).toBe(false);
    for (const n of [names.own, names.live, names.other]) expect(existsSync(join(tmp, n))).toBe(true);
  });

  it("is a no-op on a missing folder", async () => {
    const nope = join(tempDir("sweep"), "nope");
    expect(await sweepStaleSandboxes({ tmpRoot: nope, registryDir: nope, cgroupRoot: null })).toEqual([]);
  });
});
