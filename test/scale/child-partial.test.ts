import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { CHILD } from "../../src/scale/layout.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";

/**
 * `task check` needs an honest partial solution in every child: the root's partial.sh behind
 * the same restore steps (environment data) or the same channel wrapper (program tasks), never
 * a parent child's wrapper nested inside another.
 */
const provider = getSandboxProvider("bwrap");
const read = (p: string): string => readFileSync(p, "utf8");

async function lineage(taskDir: string, name: string): Promise<string> {
  const out = join(tempDir(`res-partial-${name}`), "out");
  const r = await scaleTask({
    taskDir,
    outDir: out,
    depth: 2,
    children: 1,
    library: "full",
    mode: "recursive",
    seed: 3,
    provider,
    trials: false,
  });
  expect(r.nodes.filter((n) => n.status === "approved")).toHaveLength(2);
  return out;
}

describe("RES children keep the root's partial solution, not its mutants", () => {
  it("environment data: the restore steps of solve.sh, then the root's partial.sh", async () => {
    const root = join(tempDir("res-partial-root"), "ledger-report");
    cpSync(resolve(import.meta.dirname, "../fixtures/res/ledger-report"), root, { recursive: true });
    const partial = "#!/bin/bash\n# half the work\nmkdir -p /app/out && echo '{}' > /app/out/report.json\n";
    writeFileSync(join(root, "solution", "partial.sh"), partial);
    mkdirSync(join(root, "solution", "mutants"));
    writeFileSync(join(root, "solution", "mutants", "wrong.sh"), "#!/bin/bash\n# proven on the root only\n");
    const out = await lineage(root, "env");
    for (const d of [1, 2]) {
      const sol = join(out, `ledger-report-b1-d${d}`, "solution");
      expect(read(join(sol, CHILD.parentPartial))).toBe(partial);
      // The root's mutants are proven against the root's hidden cases, not inherited.
      expect(existsSync(join(sol, "mutants"))).toBe(false);
      const solve = read(join(sol, "solve.sh")).trimEnd().split("\n");
      const part = read(join(sol, "partial.sh")).trimEnd().split("\n");
      // Same restore steps (every line between the header comment and the final exec).
      expect(part.slice(3, -1)).toEqual(solve.slice(3, -1));
      expect(part.at(-1)).toBe(`exec bash "$(dirname "$0")/${CHILD.parentPartial}" "$@"`);
      expect(solve.at(-1)).toBe(`exec bash "$(dirname "$0")/${CHILD.parentSolve}" "$@"`);
    }
  });

  it("a root without partial.sh gives children without one", async () => {
    const out = await lineage(resolve(import.meta.dirname, "../fixtures/res/ledger-report"), "none");
    expect(existsSync(join(out, "ledger-report-b1-d2", "solution", "partial.sh"))).toBe(false);
  });

  it("program task: the root's partial.sh, then the channel wrapper", async () => {
    const rootDir = resolve(import.meta.dirname, "../../tasks/blob-count");
    const out = await lineage(rootDir, "channel");
    const sol = join(out, "blob-count-b1-d2", "solution");
    expect(read(join(sol, "res", "parent-partial.sh"))).toBe(read(join(rootDir, "solution", "partial.sh")));
    const part = read(join(sol, "partial.sh"));
    expect(part).toContain("bash /solution/res/parent-partial.sh\n");
    expect(part).toContain("res_channel.py wrap /app/blobs.py /solution/res/channel.json");
    expect(read(join(sol, "solve.sh"))).toContain("bash /solution/res/parent-solve.sh\n");
    expect(existsSync(join(rootDir, "solution", "mutants"))).toBe(true);
    expect(existsSync(join(sol, "mutants"))).toBe(false);
  });
});
