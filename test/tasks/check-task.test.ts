import { describe, expect, it } from "vitest";
import { checkTask } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import type { Task } from "../../src/task/types.js";
import { levelTask } from "./support/level-task.js";

/**
 * The determinism part of `task check`: oracle, nop and partial each run their first seed a second
 * time, and scores plus stress digests must match; a verifier that produces nothing fails.
 */
const provider = getSandboxProvider("bwrap");

/** A task whose oracle writes 1 to /app/level, its partial 0.5, and whose verifier is `verifier`. */
function makeTask(name: string, verifier: string): Promise<Task> {
  return levelTask("determinism", name, verifier, { "partial.sh": "#!/bin/bash\necho 0.5 > /app/level\n" });
}

/** Writes both reward files: hidden_work = $H, public_check = 1 when /app/level exists. */
const WRITE = `D=\${LONGHAUL_VERIFIER_DIR:-/logs/verifier}
P=0; [ -f /app/level ] && P=1
echo "{\\"public_check\\": $P, \\"hidden_work\\": $H}" > "$D/reward.json"
echo "{\\"stress_digest\\": \\"$DIGEST\\"}" > "$D/reward-details.json"`;

const LEVEL = "H=$(cat /app/level 2>/dev/null || echo 0)";

function determinism(result: Awaited<ReturnType<typeof checkTask>>) {
  const c = result.checks.find((x) => x.name.startsWith("verifier deterministic"));
  if (!c) throw new Error("no determinism check");
  return c;
}

describe("task check determinism", () => {
  it("passes a deterministic verifier after re-running oracle, nop and partial", async () => {
    const task = await makeTask("steady", `${LEVEL}\nDIGEST=seed-$LONGHAUL_SEED\n${WRITE}`);
    const result = await checkTask(task, { provider, seeds: [5, 6] });
    expect(determinism(result)).toEqual({
      name: "verifier deterministic (same seed → same scores)",
      ok: true,
      detail: "seed 5 twice for oracle, nop, partial",
    });
    expect(result.ok).toBe(true);
  });

  it("runs oracle and nop on the first seed and the partial on the last, twice, in a quick check", async () => {
    const task = await makeTask("quick", `${LEVEL}\nDIGEST=seed-$LONGHAUL_SEED\n${WRITE}`);
    const result = await checkTask(task, { provider, seeds: [5, 6], quick: true });
    expect(result.rewards.oracle).toHaveLength(1);
    expect(result.rewards.nop).toHaveLength(1);
    expect(result.rewards.partial).toHaveLength(1);
    expect(result.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "oracle R = 1.0 on the first seed",
        "nop R ≤ 0.05 on the first seed",
        "partial 0.2 < R < 0.8 on the last seed",
      ]),
    );
    // The oracle's seed 5 and the partial's seed 6 are compared.
    expect(result.checks.find((c) => c.name.startsWith("different seeds"))?.detail).toBe(
      "2 distinct stress digests over 2 seeds",
    );
    // Quick re-runs only the partial: its scores mix passed and failed subtasks.
    expect(determinism(result).detail).toBe("seed 6 twice for partial");
    expect(result.ok).toBe(true);
  });

  it("leaves out nop and the determinism re-run when asked: oracle and partial only", async () => {
    const task = await makeTask("lean", `${LEVEL}\nDIGEST=seed-$LONGHAUL_SEED\n${WRITE}`);
    const result = await checkTask(task, { provider, seeds: [5, 6], quick: true, nop: false, rerun: false });
    expect(result.rewards).toMatchObject({ oracle: [1], nop: [], partial: [0.6] });
    expect(result.checks.map((c) => c.name)).toEqual([
      "oracle R = 1.0 on the first seed",
      "partial 0.2 < R < 0.8 on the last seed",
      "different seeds → different stress inputs",
      "public weight ≤ 20%",
      "tests/ shares no code with solution/",
      "tests/lh.py is the current verifier kit",
    ]);
    expect(result.ok).toBe(true);
  });

  it("catches one stress input for every seed in a quick check too", async () => {
    const task = await makeTask("quick-same", `${LEVEL}\nDIGEST=always-the-same\n${WRITE}`);
    const result = await checkTask(task, { provider, seeds: [5, 6], quick: true });
    const distinct = result.checks.find((c) => c.name.startsWith("different seeds"));
    expect(distinct).toEqual({
      name: "different seeds → different stress inputs",
      ok: false,
      detail: "1 distinct stress digests over 2 seeds",
    });
    expect(result.ok).toBe(false);
  });

  it("names the agent whose scores changed, even when the oracle's did not", async () => {
    // Deterministic for a finished solution, random for nop: the old partial-only check missed this.
    const task = await makeTask(
      "flaky-nop",
      `${LEVEL}\n[ "$H" = 0 ] && H=0.0$((RANDOM % 9 + 1))$RANDOM\nDIGEST=seed-$LONGHAUL_SEED\n${WRITE}`,
    );
    const c = determinism(await checkTask(task, { provider, seeds: [5] }));
    expect(c.ok).toBe(false);
    expect(c.detail).toMatch(/^seed 5: nop: hidden_work 0\.0\d+ vs 0\.0\d+$/);
  });

  it("fails when the stress digest changes between runs on one seed", async () => {
    const task = await makeTask("flaky-digest", `${LEVEL}\nDIGEST=$RANDOM$RANDOM\n${WRITE}`);
    const c = determinism(await checkTask(task, { provider, seeds: [5] }));
    expect(c.ok).toBe(false);
    for (const agent of ["oracle", "nop", "partial"]) expect(c.detail).toContain(`${agent}: stress digest`);
  });

  it("fails when the verifier produces no scores, identically on both runs", async () => {
    const task = await makeTask("silent", "exit 0");
    const c = determinism(await checkTask(task, { provider, seeds: [5] }));
    expect(c.ok).toBe(false);
    expect(c.detail).toContain("oracle: verifier produced no scores");
    expect(c.detail).toContain("nop: verifier produced no scores");
  });

  it("says a failing verifier's error once in the oracle's detail", async () => {
    const task = await makeTask("crashing", 'echo "grader.py: line 3: boom" >&2\nexit 3');
    const r = await checkTask(task, {
      provider,
      seeds: [5],
      quick: true,
      nop: false,
      rerun: false,
      mutants: false,
    });
    const oracle = r.checks.find((x) => x.name.startsWith("oracle R = 1.0"));
    expect(oracle?.detail).toBe(
      "seed 5: R=null (grading_error: verifier exited with 3 before writing a reward: grader.py: line 3: boom; the verifier wrote neither reward.json nor reward.txt)",
    );
  });
});
