import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli-process.js";
import { bronzeArrowsRun } from "../support/world-run.js";
import { taskFile } from "./task-sample.js";

// World commands' bad options and paths: each is one line naming the option or file (exit 2),
// found before the work, never an internal error (exit 70) or another option's name.

const dir = mkdtempSync(join(tmpdir(), "longhaul-world-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WARDEN = taskFile("warden-hunt");
const REGION = ["--region", "500,380,10,10"];

function oneLine(r: { code: number; stderr: string }, text: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(text);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
}

describe("world render --scale", () => {
  it("is a whole number from 1 to 16; anything else names --scale", async () => {
    for (const bad of ["0", "-3", "17", "1.5"]) {
      const out = join(dir, `s${bad}.png`);
      const r = await runCli(["world", "render", `--scale=${bad}`, ...REGION, "--out", out]);
      oneLine(r, `--scale: expected a whole number of pixels per tile from 1 to 16, got "${bad}"`);
      expect(existsSync(out)).toBe(false);
    }
    const ok = await runCli(["world", "render", "--scale", "16", ...REGION, "--out", join(dir, "s16.png")]);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe("--out paths", () => {
  const afile = join(dir, "afile");
  writeFileSync(afile, "x");

  it("world render: a missing folder is one line", async () => {
    const out = join(dir, "nonexistent", "r.png");
    oneLine(
      await runCli(["world", "render", ...REGION, "--out", out]),
      `${out}: cannot write (no such folder`,
    );
  });

  it("world export and world augment: a file in the way is one line, before any work", async () => {
    oneLine(
      await runCli(["world", "export", "--out", afile]),
      `--out ${afile}: it is a file, where a folder is expected`,
    );
    oneLine(
      await runCli(["world", "augment", WARDEN, "--out", afile]),
      `--out ${afile}: it is a file, where a folder is expected`,
    );
    const below = join(afile, "x");
    oneLine(await runCli(["world", "export", "--out", below]), `${afile} is a file`);
  });

  it("world export makes missing parent folders, as mkdir -p would", async () => {
    const out = join(dir, "new", "pack");
    const r = await runCli(["world", "export", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(out, "items.json"))).toBe(true);
  });
});

describe("world run and world check teams", () => {
  it("world run --team bogus lists the team agents, not the terminal agents", async () => {
    const r = await runCli(["world", "run", WARDEN, "--team", "bogus", "--jobs-dir", join(dir, "jobs")]);
    oneLine(r, 'unknown team agent "bogus" (known: oracle, random, nop, scripted, llm)');
    expect(r.stderr).not.toContain("claude-code");
  });

  it("world run --team llm takes --base-url and passes it to the team", async () => {
    const jobs = join(dir, "jobs-llm");
    const r = await runCli([
      "world",
      "run",
      WARDEN,
      "--team",
      "llm",
      "-m",
      "openai-compatible:nowhere",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--agent-opt",
      "max_retries=0",
      "--jobs-dir",
      jobs,
      "--json",
    ]);
    expect(r.stderr).not.toContain("no base URL");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { trials: { outcome: string; error: string | null }[] };
    // The team reached for the given server (nobody listens on port 9): the URL got through.
    expect(out.trials[0]?.outcome).toBe("infra_error");
    expect(out.trials[0]?.error).toMatch(/Cannot connect|connect/);
  });

  it("world check --team oracle is refused: it cannot play the single-role check", async () => {
    oneLine(
      await runCli(["world", "check", WARDEN, "--team", "oracle"]),
      "--team oracle cannot play a task as one role",
    );
  });
});

describe("a run file's modifiers", () => {
  it("an unknown one is the run file's error in world replay and world cce, not an option's", async () => {
    const { run } = bronzeArrowsRun();
    const file = join(dir, "bad-mods.json");
    writeFileSync(file, JSON.stringify({ ...run, modifiers: ["dragon"] }));
    for (const cmd of ["replay", "cce"]) {
      const r = await runCli(["world", cmd, file]);
      oneLine(r, `${file}: modifiers: unknown world modifier "dragon"`);
      expect(r.stderr).not.toContain("option world_modifiers");
    }
  });
});

describe("seeds past 32 bits", () => {
  it("--seeds and a task's seed are at most 2^32 - 1, where the engine's generator would wrap", async () => {
    const r = await runCli(["world", "run", WARDEN, "--team", "random", "--seeds", "1,4294967297"]);
    oneLine(r, "--seeds: at most 4294967295 (32 bits), got 4294967297");
    const yaml = join(dir, "big-seed.yaml");
    writeFileSync(yaml, readFileSync(WARDEN, "utf8").replace(/^seed: \d+$/m, "seed: 4294967299"));
    const c = await runCli(["world", "check", yaml]);
    expect(c.stderr + c.stdout).toMatch(/seed/);
    expect(c.code).not.toBe(0);
  });
});
