import { expect, it } from "vitest";
import { checkMutants, checkTask } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { bundledTasks, SEEDS } from "./support/dataset-check.js";

// The same image in Docker containers: a fixed sample here (one task, one seed), in a file of its
// own so that its container waits overlap the bwrap checks; the full sweep over every task is
// `longhaul task check tasks --sandbox docker` (docs/benchmarks.md).
it("passes task check under docker too (log-digest, one seed)", { timeout: 900_000 }, async () => {
  const task = (await bundledTasks()).find((t) => t.name === "log-digest");
  if (!task) throw new Error("log-digest missing");
  const result = await checkTask(task, {
    provider: getSandboxProvider("docker"),
    seeds: [SEEDS[0]],
    // Quick, and no nop or determinism re-run: neither depends on the sandbox (the bwrap dataset
    // check samples both). What docker must show is that the image's oracle and partial score
    // there as under bwrap.
    quick: true,
    nop: false,
    rerun: false,
    // The mutants' R < 0.95 does not depend on the sandbox: mutants.test.ts samples them under bwrap.
    mutants: false,
  });
  expect(result.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`)).toEqual([]);
  expect(result.checks.find((c) => c.name.startsWith("oracle"))?.ok).toBe(true);
  expect(result.checks.find((c) => c.name.startsWith("partial"))?.ok).toBe(true);
});

// Mutants copy the oracle's program out of the read-only /solution and patch it: under docker the
// copy must be as writable as under bwrap, or the patch fails and the oracle's program is scored.
it("scores a mutant under docker as a mutant (log-digest, one seed)", { timeout: 900_000 }, async () => {
  const task = (await bundledTasks()).find((t) => t.name === "log-digest");
  if (!task) throw new Error("log-digest missing");
  const result = await checkMutants(task, {
    provider: getSandboxProvider("docker"),
    seeds: [SEEDS[0]],
    names: ["until-inclusive"],
  });
  expect(result.mutants.map((m) => [m.name, m.scriptError])).toEqual([["until-inclusive", null]]);
  expect(result.mutants[0]?.rewards[0]).toBeLessThan(0.95);
  expect(result.ok).toBe(true);
});
