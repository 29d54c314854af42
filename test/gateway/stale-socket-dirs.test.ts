import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sweepStaleGatewayDirs } from "../../src/runner/trial-gateway.js";

// A runner killed with -9 leaves its trial gateways' socket folders behind; the next job's sweep
// removes those of dead processes and never those of a live one.
const dir = mkdtempSync(join(tmpdir(), "lh-gwsweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("stale gateway socket folders", () => {
  it("are removed when their process is gone, kept while it lives", () => {
    // A pid that existed and has exited: a finished child's.
    const dead = spawnSync("true").pid;
    expect(dead).toBeGreaterThan(0);
    const stale = join(dir, `lhgw-${dead}-abc123`);
    const live = join(dir, `lhgw-${process.pid}-def456`);
    const other = join(dir, "lhgw-notapid");
    for (const d of [stale, live, other]) mkdirSync(d);
    writeFileSync(join(stale, "gateway.sock"), "");
    expect(sweepStaleGatewayDirs(dir)).toEqual([stale]);
    expect([existsSync(stale), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });
});
