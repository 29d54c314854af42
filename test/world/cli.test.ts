import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { worldCommandFor } from "../../src/cli/commands/world.js";
import { createWorld } from "../../src/world/build/world.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import { runScriptedTeam } from "../../src/world/examples/team-plan.js";
import { loadWorldTask } from "../../src/world/task/load.js";
import { replayReference } from "../../src/world/task/replay.js";

async function cli(args: string[]): Promise<string> {
  const program = new Command();
  program.exitOverride();
  (await worldCommandFor())(program);
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  await program.parseAsync(["node", "longhaul", "world", ...args]);
  vi.restoreAllMocks();
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("longhaul world", () => {
  it("info --json prints the content counts", async () => {
    const info = JSON.parse(await cli(["info", "--json"])) as Record<string, unknown>;
    expect(info.map).toMatchObject({ width: 1056, height: 768 });
    expect(info.items).toBe(createWorld().pack.items.length);
    expect(info.maxRecipeDepth).toBeGreaterThanOrEqual(3);
    expect(await cli(["info"])).toMatch(/harvest points\s+\d+/);
  });

  it("render draws a region with a run and rejects bad regions and foreign runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "world-cli-"));
    const runFile = join(dir, "run.json");
    writeFileSync(runFile, JSON.stringify(runScriptedTeam(createWorld()).toRunFile(DEFAULT_SEED)));
    const out = join(dir, "map.png");
    await cli(["render", "--region", "500,360,50,40", "--run", runFile, "--out", out]);
    const png = PNG.sync.read(readFileSync(out));
    expect([png.width, png.height]).toEqual([50 * 16, 40 * 16]); // scaled up, at most 16 pixels a tile
    await expect(cli(["render", "--region", "1000,700,200,200", "--out", out])).rejects.toThrow(/not inside/);
    await expect(cli(["render", "--region", "a,b", "--out", out])).rejects.toThrow(/x,y,w,h/);
    const foreign = JSON.parse(readFileSync(runFile, "utf8")) as Record<string, unknown>;
    writeFileSync(runFile, JSON.stringify({ ...foreign, contentDigest: "other" }));
    await expect(cli(["render", "--run", runFile, "--out", out])).rejects.toThrow(/different world/);
  });

  it("replay confirms a recorded run, and flags broken turn order, a foreign pack and old files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "world-cli-"));
    const runFile = join(dir, "run.json");
    const run = runScriptedTeam(createWorld()).toRunFile(DEFAULT_SEED);
    writeFileSync(runFile, JSON.stringify(run));
    expect(await cli(["replay", runFile])).toMatch(/^identical: \d+ events/);
    expect(process.exitCode ?? 0).toBe(0);
    // The miner acting three times in round 0.
    const miner = run.calls.filter((c) => c.agent === "miner").slice(0, 3);
    writeFileSync(runFile, JSON.stringify({ ...run, calls: miner.map((c) => ({ ...c, round: 0 })) }));
    expect(await cli(["replay", runFile])).toMatch(/^INVALID: call 1 \(miner\) breaks the turn order/);
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    writeFileSync(runFile, JSON.stringify({ ...run, contentDigest: "f".repeat(64) }));
    expect(await cli(["replay", runFile])).toMatch(/^DIFFERENT: content pack digest differs: recorded f{64}/);
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    writeFileSync(runFile, JSON.stringify({ ...run, version: 1 }));
    await expect(cli(["replay", runFile])).rejects.toThrow(/version 1 was recorded under other engine rules/);
  });

  it("replays a world task's run from the task it records, and draws it with the task's mobs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "world-cli-"));
    const runFile = join(dir, "task-run.json");
    const world = createWorld();
    const ref = replayReference(loadWorldTask("world-tasks/warden-hunt.yaml", world), world);
    writeFileSync(runFile, JSON.stringify(ref.session.toRunFile(DEFAULT_SEED)));
    expect(await cli(["replay", runFile])).toMatch(/^identical: \d+ events/);
    expect(process.exitCode ?? 0).toBe(0);
    const out = join(dir, "map.png");
    await cli(["render", "--region", "530,360,40,30", "--run", runFile, "--out", out]);
    expect(PNG.sync.read(readFileSync(out)).width).toBe(40 * 16);
  });
});
