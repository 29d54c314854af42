import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const LOAN = resolve(import.meta.dirname, "../../tasks/loan-schedule");

/** What `scale` refuses about a root task's folders (docs/scale.md, "What scale refuses"). */
describe("scale refuses links in a task's folders, clearly and before anything is written", () => {
  for (const [where, link, to] of [
    ["environment/", "environment/data/copy.csv", "orders.csv"],
    ["tests/", "tests/orders.csv", "../environment/data/orders.csv"],
    ["solution/", "solution/helper.sh", "solve.sh"],
  ] as const) {
    it(`a symbolic link in ${where}`, async () => {
      const base = tempDir("res-limits");
      const root = join(base, "ledger-link");
      cpSync(LEDGER, root, { recursive: true });
      symlinkSync(to, join(root, link));
      const out = join(base, "out");
      const r = await cli(["scale", root, "--depth", "1", "--no-trials", "--out", out]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(
        `longhaul: ${join(root, link)}: a symbolic link; RES scales only tasks whose environment/, tests/ and solution/ hold regular files and folders (replace a link by a copy of what it points to)`,
      );
      expect(existsSync(out)).toBe(false);
    });
  }
});

describe("scale refuses names it keeps for itself before planning", () => {
  it("a program task's solution/res/, which used to discard every candidate as plan-invalid", async () => {
    const base = tempDir("res-limits");
    const root = join(base, "loan-res");
    cpSync(LOAN, root, { recursive: true });
    mkdirSync(join(root, "solution/res"));
    writeFileSync(join(root, "solution/res/notes.txt"), "mine\n");
    const out = join(base, "out");
    const r = await cli(["scale", root, "--depth", "1", "--no-trials", "--repairs", "0", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(
      `longhaul: ${join(root, "solution/res")}: RES keeps its own files under this name`,
    );
    expect(existsSync(out)).toBe(false);
  });
});
