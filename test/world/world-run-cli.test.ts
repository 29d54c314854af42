import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createViewerApp } from "../../src/server/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

/** `longhaul world run`: one job of the runner, one attempt per seed, and the repeatability table. */
const TASK = resolve(import.meta.dirname, "../../world-tasks/market-supply.yaml");

interface Cell {
  sr: number;
  psr: number;
  trials: number;
}
interface WorldRunJson {
  job_id: string;
  team: string;
  modifiers: string[];
  seeds: { attempt: number; seed: number | null }[];
  rows: { task: string; per_seed: (Cell | null)[]; sr: { mean: number; min: number; max: number } }[];
  trials: { trial_id: string; task: string; seed: number; success: boolean; psr: number; rounds: number }[];
}

describe("longhaul world run", () => {
  it("prints SR and PSR per seed with their mean and spread, per task and overall", async () => {
    const jobs = tempDir("world-run");
    const r = await runCli(["world", "run", TASK, "--team", "oracle", "--seeds", "1,2", "--jobs-dir", jobs]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[1]).toBe("team oracle; modifiers: none");
    const header = lines.find((l) => l.startsWith("task"));
    expect(header?.split(/\s{2,}/)).toEqual([
      "task",
      "seed 1",
      "seed 2",
      "SR mean",
      "SR min–max",
      "SR sd",
      "PSR mean",
      "PSR min–max",
      "PSR sd",
    ]);
    const row = (name: string) => lines.find((l) => l.startsWith(name))?.split(/\s{2,}/);
    // The oracle succeeds with every checkpoint on both seeds.
    const expected = ["1.00 / 1.00", "1.00 / 1.00", "1.00", "1.00–1.00", "0.00", "1.00", "1.00–1.00", "0.00"];
    expect(row("market-supply")).toEqual(["market-supply", ...expected]);
    expect(row("all")).toEqual(["all", ...expected]);
    // One job, one attempt per seed, the seeds recorded as given.
    const job = lines[0]?.split(" ")[1] ?? "";
    const config = JSON.parse(readFileSync(join(jobs, job, "config.json"), "utf8")) as {
      attempts: number;
      attempt_seeds: number[];
    };
    expect(config).toMatchObject({ attempts: 2, attempt_seeds: [1, 2] });
  });

  it("--modifier and --json: the modified team fails, the table and trials say so, the run replays", async () => {
    const jobs = tempDir("world-run");
    const r = await runCli([
      "world",
      "run",
      TASK,
      "--team",
      "oracle",
      "--modifier",
      "no-comm",
      "--seeds",
      "3,8",
      "--jobs-dir",
      jobs,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as WorldRunJson;
    expect(out.modifiers).toEqual(["no-comm"]);
    expect(out.seeds).toEqual([
      { attempt: 1, seed: 3 },
      { attempt: 2, seed: 8 },
    ]);
    expect(out.trials.map((t) => t.seed)).toEqual([3, 8]);
    expect(out.trials.every((t) => !t.success && t.psr < 1)).toBe(true);
    const task = out.rows.find((x) => x.task === "market-supply");
    expect(task?.per_seed.map((c) => [c?.sr, c?.psr])).toEqual(out.trials.map((t) => [0, t.psr]));
    expect(task?.sr).toMatchObject({ mean: 0, min: 0, max: 0 });
    const config = JSON.parse(readFileSync(join(jobs, out.job_id, "config.json"), "utf8")) as {
      agent_options: Record<string, string>;
    };
    expect(config.agent_options).toEqual({ world_modifiers: "no-comm" });
    const dir = join(jobs, out.job_id, out.trials[0]?.trial_id ?? "");
    const result = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as {
      world: { modifiers: string[] };
    };
    expect(result.world.modifiers).toEqual(["no-comm"]);
    const replay = await runCli(["world", "replay", join(dir, "world-run.json")]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^identical: \d+ events/);
  });

  it("longhaul run takes modifiers as the agent option world_modifiers; bad ones are user errors", async () => {
    const jobs = tempDir("world-run");
    const r = await runCli([
      "run",
      TASK,
      "--agent",
      "oracle",
      "--agent-opt",
      "world_modifiers=round-budget=1",
      "--jobs-dir",
      jobs,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { job_id: string; trials: { trial_id: string }[] };
    const dir = join(jobs, out.job_id, out.trials[0]?.trial_id ?? "");
    const result = JSON.parse(readFileSync(join(dir, "result.json"), "utf8")) as {
      world: { rounds: number; max_rounds: number; modifiers: string[] };
    };
    expect(result.world).toMatchObject({ rounds: 1, max_rounds: 1, modifiers: ["round-budget=1"] });
    // The viewer's trial page names them.
    const viewer = await createViewerApp({ jobsDir: jobs });
    try {
      const page = await viewer.app.request(`/jobs/${out.job_id}/trials/${out.trials[0]?.trial_id ?? ""}`);
      expect(await page.text()).toContain('<span id="world-modifiers"><code>round-budget=1</code></span>');
    } finally {
      await viewer.close();
    }
    const bad = await runCli([
      "world",
      "run",
      TASK,
      "--team",
      "oracle",
      "--modifier",
      "round-budget=0",
      "--jobs-dir",
      jobs,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("world_modifiers: round-budget=0: expected a whole number from 1 to 10000");
    const unknown = await runCli([
      "run",
      TASK,
      "--agent",
      "oracle",
      "--agent-opt",
      "world_modifiers=solo",
      "--jobs-dir",
      jobs,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown world modifier "solo" (known: no-comm');
  });
});
