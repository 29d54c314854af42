import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld } from "../../src/world/build/world.js";
import { DEFAULT_SEED } from "../../src/world/content/generate-content.js";
import { loadWorldTask, replayRounds } from "../../src/world/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

describe("longhaul world cce", () => {
  it("prints CCE and PAC with denominators, the counterfactual check and exact Shapley values of a run file", async () => {
    const base = createWorld();
    const spec = loadWorldTask(resolve(import.meta.dirname, "../../world-tasks/warden-hunt.yaml"), base);
    const { session } = replayRounds(spec, base, spec.reference ?? []);
    const file = join(tempDir("world-cce"), "run.json");
    writeFileSync(file, JSON.stringify(session.toRunFile(DEFAULT_SEED)));
    const r = await runCli(["world", "cce", file, "--samples", "2", "--seed", "3", "--shapley"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("CCE 0.464 (13/28); without waits 0.765 (13/17)");
    expect(r.stdout).toMatch(/cook +PAC 0\.833 \(5\/6\) +share 0\.214 \(6\/28\)/);
    expect(r.stdout).toMatch(
      /counterfactual \(seed 3\): closure calls necessary [\d.–]+ \(\d\/2\), outside calls breaking success 0\.000 \(0\/2\)/,
    );
    // Three agents: every one of the 8 coalitions is replayed; the values add up to v(all) − v(none).
    expect(r.stdout).toContain("Shapley values (exact; 8 coalitions replayed; success 0→1");
    const values = [...r.stdout.matchAll(/^ {2}\S+ +success (\d\.\d{3}) +PSR/gm)].map((m) => Number(m[1]));
    expect(values).toHaveLength(3);
    expect(values.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 2);
  }, 60_000);
});
