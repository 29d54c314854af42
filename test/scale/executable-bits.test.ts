import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { ResJson } from "../../src/scale/child/res-json.js";
import { restoreChain } from "../../src/scale/child/spec-update.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";
import { GOOD_TOYS } from "./support/toy-transforms.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

// Helpers that a task runs as programs (`./tools/sum.sh`, `/tests/helper.sh`), not through `sh`.
const EXECUTABLES = ["environment/tools/sum.sh", "tests/helper.sh", "solution/helper.sh"];

describe("a child keeps the execute bits of its parent's files", () => {
  for (const t of GOOD_TOYS) registerTransform(t);

  it("at every depth, for the environment, tests/ and solution/", async () => {
    const base = tempDir("res-exec-bits");
    const root = join(base, "ledger-exec");
    cpSync(LEDGER, root, { recursive: true });
    mkdirSync(join(root, "environment/tools"));
    for (const f of EXECUTABLES) {
      writeFileSync(join(root, f), "#!/bin/sh\nexit 0\n");
      chmodSync(join(root, f), 0o755);
    }
    writeFileSync(join(root, "environment/tools/notes.txt"), "not a program\n");
    const out = join(base, "out");
    const r = await cli(["scale", root, "--depth", "2", "--library", "basic", "--no-trials", "--out", out]);
    expect(r.stderr).toContain("2 approved");
    for (const child of ["ledger-exec-b1-d1", "ledger-exec-b1-d2"]) {
      for (const f of EXECUTABLES) {
        const p = join(out, child, f);
        expect(existsSync(p), p).toBe(true);
        expect(statSync(p).mode & 0o111, p).toBe(0o111);
      }
      expect(statSync(join(out, child, "environment/tools/notes.txt")).mode & 0o111).toBe(0);
    }
  }, 120_000);

  it("an executable file a transform binds comes back executable, in the child's restore steps and its verifier's snapshot", async () => {
    const base = tempDir("res-exec-moved");
    const root = join(base, "ledger-exec-data");
    cpSync(LEDGER, root, { recursive: true });
    // Every file the tests read is executable, so whatever the plan binds is one of them.
    const reads = ["data/orders.csv", "data/refunds.jsonl", "config/rates.json"];
    for (const f of reads) chmodSync(join(root, "environment", f), 0o755);
    const out = join(base, "out");
    const r = await cli(["scale", root, "--depth", "1", "--library", "basic", "--no-trials", "--out", out]);
    expect(r.stderr).toContain("1 approved");
    const child = join(out, "ledger-exec-data-b1-d1");
    const res = JSON.parse(readFileSync(join(child, "res.json"), "utf8")) as ResJson;
    const bound = res.plan.steps.flatMap((s) => s.targets).filter((t) => reads.includes(t));
    expect(bound.length).toBeGreaterThan(0);
    const instruction = readFileSync(join(child, "instruction.md"), "utf8");
    const solve = readFileSync(join(child, "solution/solve.sh"), "utf8");
    for (const t of bound) {
      expect(instruction).toContain(`chmod ugo+x '${t}'`);
      expect(solve).toContain(`chmod ugo+x '\\''${t}'\\''`);
    }
    // The restore steps, run as the child's solution runs them, leave every bound file executable.
    const work = join(base, "work");
    cpSync(join(child, "environment"), work, { recursive: true });
    for (const step of restoreChain(instruction)) {
      const done = spawnSync("sh", ["-c", step.run], { cwd: work, encoding: "utf8" });
      expect(done.status, `${step.label}: ${done.stderr}`).toBe(0);
    }
    for (const t of bound) expect(statSync(join(work, t)).mode & 0o111, t).toBe(0o111);
    // The verifier puts the protected originals back from its snapshot with their bits.
    for (const f of reads) {
      expect(statSync(join(child, "tests/res/snapshot", f)).mode & 0o111, f).toBe(0o111);
    }
  }, 120_000);
});
