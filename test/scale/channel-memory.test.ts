import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { channelKitPath } from "../../src/scale/channel/steps.js";

// Memory-backed when the machine has one: the disk way writes every file once per step, and on
// some disks that is ten times slower than the steps themselves.
const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
const root = mkdtempSync(join(base, "longhaul-res-channel-memory-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SCRIPT = join(import.meta.dirname, "support", "channel-memory-equiv.py");

const Report = z.object({
  cases: z.number(),
  routes: z.array(z.string()),
  compared: z.number(),
  errors: z.number(),
  singles: z.number(),
  used: z.object({ mem: z.number(), disk: z.number() }),
  mismatches: z.array(z.unknown()),
  mismatch_count: z.number(),
});

function equiv(cases: number, seed: number): z.infer<typeof Report> {
  const work = mkdtempSync(join(root, "run-"));
  const r = spawnSync(
    "/usr/bin/python3",
    [SCRIPT, dirname(channelKitPath()), work, String(cases), String(seed)],
    {
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return Report.parse(JSON.parse(r.stdout.trim().split("\n").pop() ?? ""));
}

/**
 * The channel kit transforms an input in memory and writes the result once; on disk (the
 * reference, kept for inputs above MEM_LIMIT) it rewrote every file at every step. The two must
 * leave the same tree: names, bytes, modes, the times of files no step rewrote, and the same
 * error where a step writes through a file or over a folder.
 */
describe("the channel kit in memory and on disk", () => {
  it("present and restore give the same trees and errors on 200 seeded inputs and chains", () => {
    const r = equiv(200, 7);
    expect(r.mismatches).toEqual([]);
    expect(r.mismatch_count).toBe(0);
    expect(r.compared).toBeGreaterThan(150);
    // Both ways really ran (a present each per compared case, and the restores that could
    // run), single files and refused chains among them.
    expect(r.used.mem).toBeGreaterThan(r.compared);
    expect(r.used.disk).toBeGreaterThan(r.compared);
    expect(r.singles).toBeGreaterThan(20);
    expect(r.errors).toBeGreaterThan(0);
    // A 2000-byte input: on disk when MEM_LIMIT is below its size, in memory at its size.
    expect(r.routes).toEqual(["disk", "mem"]);
  });
});
