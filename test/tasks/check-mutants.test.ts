import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/index.js";
import { checkMutants, checkTask, describeMutant } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { listMutants } from "../../src/task/index.js";
import type { Task } from "../../src/task/types.js";
import { levelTask } from "./support/level-task.js";

/**
 * The mutant part of `task check`: every solution/mutants/NAME.sh runs as the `mutant` agent and
 * must score R < 0.95; the report names the subtasks that caught each one.
 */
const provider = getSandboxProvider("bwrap");

/** public_check = 1 when /app/level exists; hidden_work = the level written there. */
const VERIFIER = `H=$(cat /app/level 2>/dev/null || echo 0)
P=0; [ -f /app/level ] && P=1
D=\${LONGHAUL_VERIFIER_DIR:-/logs/verifier}
echo "{\\"public_check\\": $P, \\"hidden_work\\": $H}" > "$D/reward.json"`;

/** A task whose oracle writes level 1 and whose mutants write the given levels. */
function makeTask(name: string, mutants: Record<string, string>): Promise<Task> {
  const scripts = Object.fromEntries(
    Object.entries(mutants).map(([m, level]) => [
      `mutants/${m}.sh`,
      `#!/bin/bash\n# Writes ${level} instead of 1.\necho ${level} > /app/level\n`,
    ]),
  );
  return levelTask("mutants", name, VERIFIER, scripts);
}

describe.concurrent("task check's mutants", () => {
  it("lists solution/mutants/*.sh with what each gets wrong", async () => {
    const task = await makeTask("listing", { b: "0.5", a: "0.2" });
    writeFileSync(join(task.paths.solution, "mutants", "helper.py"), "# not a mutant\n");
    expect(listMutants(task.paths.solution)).toEqual([
      { name: "a", wrong: "Writes 0.2 instead of 1." },
      { name: "b", wrong: "Writes 0.5 instead of 1." },
    ]);
  });

  it("refuses a mutant name that is not a plain file name", () => {
    expect(() => createAgent("mutant", {})).toThrow(/needs --agent-opt name=NAME/);
    expect(() => createAgent("mutant", { name: "../solve" })).toThrow(/needs --agent-opt name=NAME/);
    expect(createAgent("mutant", { name: "off-by-one" }).name).toBe("mutant");
  });

  it("fails the check naming a mutant at R ≥ 0.95, and lists what caught the others", async () => {
    // R = (1 + 4·level) / 5: 0.5 → 0.6, 0.99 → 0.992.
    const task = await makeTask("sweep", { caught: "0.5", close: "0.99" });
    const result = await checkMutants(task, { provider, seeds: [5, 6], minMutants: 3 });
    expect(result.ok).toBe(false);
    expect(result.mutants.map((m) => [m.name, m.ok, m.rewards, m.caughtBy, m.passesPublic])).toEqual([
      ["caught", true, [0.6, 0.6], ["hidden_work"], true],
      ["close", false, [0.992, 0.992], ["hidden_work"], true],
    ]);
    const every = result.checks.find((c) => c.name === "every mutant R < 0.95 on every seed");
    expect(every?.ok).toBe(false);
    expect(every?.detail).toBe(
      "close not caught: R=0.992 0.992, caught by hidden_work (passes the public subtasks) — Writes 0.99 instead of 1.",
    );
    expect(result.checks.find((c) => c.name === "at least 3 mutants in solution/mutants/")).toEqual({
      name: "at least 3 mutants in solution/mutants/",
      ok: false,
      detail: "2: caught, close",
    });
  });

  it("passes a task whose mutants all score below 0.95, in checkTask's quick mode on the first seed", async () => {
    const task = await makeTask("all-caught", { half: "0.5", zero: "0" });
    const result = await checkTask(task, { provider, seeds: [5, 6], quick: true, minMutants: 2 });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.checks.find((c) => c.name.startsWith("every mutant"))).toEqual({
      name: "every mutant R < 0.95 on the first seed",
      ok: true,
      detail: "2 mutants caught",
    });
    expect(result.mutants.map((m) => [m.name, m.seeds, m.caughtBy])).toEqual([
      ["half", [5], ["hidden_work"]],
      ["zero", [5], ["hidden_work"]],
    ]);
  });

  it("fails a mutant whose own script fails, whatever it scores: what it left is not the mutant", async () => {
    // A patch that cannot be written (a read-only copy, say) leaves the oracle's program behind.
    const task = await makeTask("broken", { half: "0.5" });
    writeFileSync(
      join(task.paths.solution, "mutants", "unpatched.sh"),
      "#!/bin/bash\n# Patch fails after the oracle's output is in place.\necho 1 > /app/level\nexit 3\n",
    );
    const result = await checkMutants(task, { provider, seeds: [5] });
    expect(result.mutants.map((m) => [m.name, m.ok, m.scriptError !== null])).toEqual([
      ["half", true, false],
      ["unpatched", false, true],
    ]);
    const every = result.checks.find((c) => c.name.startsWith("every mutant"));
    expect(every?.ok).toBe(false);
    expect(every?.detail).toMatch(
      /^unpatched: its script failed \(solution\/mutants\/unpatched\.sh exited with 3/,
    );
  });

  it("grades the first seed in full and lets later seeds stop once R < 0.95 is certain", async () => {
    // Like lh.py under LONGHAUL_STOP_BELOW: the public subtask is graded, then (its weight lost)
    // the hidden one is skipped and scores 0, with lh.py's note.
    const stopping = `${VERIFIER}
if [ -n "$LONGHAUL_STOP_BELOW" ] && [ "$P" = 0 ]; then
  echo '{"public_check": 0, "hidden_work": 0}' > "$D/reward.json"
  echo '{"subtasks": {"hidden_work": {"message": "not run: R < 0.95 is already certain (LONGHAUL_STOP_BELOW)"}}}' > "$D/reward-details.json"
fi`;
    const task = await levelTask("mutants", "stopping", stopping, {
      "mutants/no-file.sh": "#!/bin/bash\n# Writes nothing.\nexit 0\n",
    });
    const defaults = await checkMutants(task, { provider, seeds: [5, 6, 7] });
    const [m] = defaults.mutants;
    expect([m?.rewards, m?.stopped, m?.caughtBy]).toEqual([
      [0, 0, 0],
      [false, true, true],
      ["public_check", "hidden_work"],
    ]);
    expect(m && describeMutant(m)).toBe(
      "R=0.000 <0.95 <0.95, caught by public_check, hidden_work — Writes nothing.",
    );
    expect(defaults.checks.find((c) => c.name.startsWith("every mutant"))?.ok).toBe(true);
    const full = await checkMutants(task, { provider, seeds: [5, 6], stop: "never" });
    expect(full.mutants[0]?.stopped).toEqual([false, false]);
  });

  it("fails a check naming a NAME.sh that is a folder or leads nowhere, and runs the real mutants", async () => {
    const task = await makeTask("not-scripts", { half: "0.5" });
    mkdirSync(join(task.paths.solution, "mutants", "folder.sh"));
    symlinkSync("/nonexistent/mutant.sh", join(task.paths.solution, "mutants", "dangling.sh"));
    const expected = {
      name: "solution/mutants/*.sh are scripts",
      ok: false,
      detail:
        "solution/mutants/dangling.sh is a link that leads to no file; solution/mutants/folder.sh is a folder, where a script is expected",
    };
    const full = await checkTask(task, { provider, seeds: [5], quick: true, nop: false, rerun: false });
    expect(full.ok).toBe(false);
    expect(full.checks.find((c) => c.name === expected.name)).toEqual(expected);
    expect(full.mutants.map((m) => [m.name, m.ok])).toEqual([["half", true]]);
    const only = await checkMutants(task, { provider, seeds: [5] });
    expect(only.ok).toBe(false);
    expect(only.checks.find((c) => c.name === expected.name)).toEqual(expected);
  });

  it("runs no mutants when told not to", async () => {
    const task = await makeTask("skipped", { close: "0.99" });
    const result = await checkTask(task, { provider, seeds: [5], quick: true, mutants: false });
    expect(result.mutants).toEqual([]);
    expect(result.checks.some((c) => c.name.startsWith("every mutant"))).toBe(false);
    expect(result.ok).toBe(true);
  });
});
