import { chmodSync, cpSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
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
});
