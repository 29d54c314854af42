import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { checkTask } from "../../src/runner/check-task.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { readResJson } from "../../src/scale/child/res-json.js";
import { restoreChain } from "../../src/scale/child/spec-update.js";
import { type LineageNode, readLineage } from "../../src/scale/lineage/store.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import { verifyChild } from "../../src/scale/verify/verify-child.js";
import { loadTask, loadTasks } from "../../src/task/load.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";
import { GOOD_TOYS } from "./support/toy-transforms.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const provider = getSandboxProvider("bwrap");

describe("a depth-3 recursive lineage of ledger-report, verified with real sandboxes", () => {
  const out = join(tempDir("res-lineage"), "out");
  let result: { outDir: string; nodes: LineageNode[] };
  const progress: string[] = [];
  let table = "";
  let exitCode = -1;

  beforeAll(async () => {
    for (const t of GOOD_TOYS) registerTransform(t);
    // Through the command itself, in this process (so the test transforms are registered).
    const r = await cli(["scale", LEDGER, "--depth", "3", "--library", "basic", "--seed", "7", "--out", out]);
    progress.push(...r.stderr.split("\n"));
    table = r.stdout;
    exitCode = r.code;
    result = { outDir: out, nodes: readLineage(out) };
  }, 120_000);

  it("prints the result table on stdout and progress on stderr", () => {
    expect(exitCode).toBe(0);
    expect(table.split("\n")[0]).toMatch(
      /^node\s+parent\s+depth\s+status\s+attempts\s+transforms\s+verifier/,
    );
    expect(table).toContain("ledger-report-b1-d3");
    expect(progress.some((l) => /3 approved, 0 discarded/.test(l))).toBe(true);
  });

  it("approves three children, each the parent of the next", () => {
    const kids = result.nodes.filter((n) => n.status !== "root");
    expect(kids.map((n) => [n.id, n.parent, n.status, n.depth])).toEqual([
      ["ledger-report-b1-d1", "ledger-report", "approved", 1],
      ["ledger-report-b1-d2", "ledger-report-b1-d1", "approved", 2],
      ["ledger-report-b1-d3", "ledger-report-b1-d2", "approved", 3],
    ]);
    for (const n of kids)
      expect(n.checks.map((c) => `${c.name}:${c.status}`)).toEqual([
        "protected:pass",
        "reproducible:pass",
        "leak:pass",
        "restore:pass",
        "oracle:pass",
      ]);
    expect(progress.some((l) => l.includes("approved"))).toBe(true);
  });

  it("keeps the lineage in lineage.jsonl and lineage.sqlite", () => {
    expect(readLineage(out).map((n) => n.id)).toEqual(result.nodes.map((n) => n.id));
    const db = new BetterSqlite3(join(out, "lineage.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT id, parent, status FROM nodes ORDER BY seq").all();
    db.close();
    expect(rows).toHaveLength(4);
  });

  it("writes children that load as a dataset, with the chain of restore steps and the root's checks", async () => {
    const tasks = await loadTasks([out]);
    expect(tasks.map((t) => t.name)).toEqual([
      "ledger-report-b1-d1",
      "ledger-report-b1-d2",
      "ledger-report-b1-d3",
    ]);
    const d3 = join(out, "ledger-report-b1-d3");
    const res = readResJson(d3);
    expect(res.protected.reads).toEqual(["config/rates.json", "data/orders.csv", "data/refunds.jsonl"]);
    expect(res.parent.dir).toBe("../ledger-report-b1-d2");
    const instruction = readFileSync(join(d3, "instruction.md"), "utf8");
    expect(instruction.startsWith(readFileSync(join(LEDGER, "instruction.md"), "utf8"))).toBe(true);
    expect(restoreChain(instruction).map((s) => s.label)[0]).toMatch(/^d3\./);
    expect(readFileSync(join(d3, "tests/check_report.py"))).toEqual(
      readFileSync(join(LEDGER, "tests/check_report.py")),
    );
    expect(readFileSync(join(d3, "tests/res-parent-test.sh"))).toEqual(
      readFileSync(join(LEDGER, "tests/test.sh")),
    );
  });

  it("re-verifies a child from its folder alone (`scale verify`)", async () => {
    const v = await verifyChild(join(out, "ledger-report-b1-d2"), { provider, trials: false });
    expect(v.diagnostics).toEqual([]);
    const r = await cli(["scale", "verify", join(out, "ledger-report-b1-d2"), "--no-trials"]);
    expect(r.code).toBe(0);
    // Colours are on where CI is set: compare the plain text.
    const plain = r.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
    expect(plain).toMatch(/PASS .*ledger-report-b1-d2\n {2}✓ protected: .*\n {2}✓ reproducible: /);
    expect(plain).toMatch(/- oracle: trials not requested/);
  });

  it("prints the lineage as a tree (`scale tree`)", async () => {
    const r = await cli(["scale", "tree", out]);
    expect(r.stdout.split("\n")[0]).toBe("ledger-report (root)");
    expect(r.stdout).toMatch(/└─ ledger-report-b1-d1 {2}approved {2}depth 1/);
    expect(r.stdout).toMatch(/verifier: ✓protected ✓reproducible ✓leak ✓restore ✓oracle/);
  });
});

describe("the ledger-report fixture", () => {
  it("passes task check (oracle R = 1.0, nop R = 0, deterministic verifier)", async () => {
    const r = await checkTask(await loadTask(LEDGER), { provider, seeds: [1000] });
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
  }, 60_000);
});

describe("`longhaul scale` on bad input: exit 2 and one line", () => {
  it.each([
    [["scale", LEDGER], /scale needs --depth K/],
    [["scale", LEDGER, "--depth", "11"], /--depth must be a whole number from 1 to 10, got "11"/],
    [["scale", LEDGER, "--depth", "2", "--mode", "sideways"], /--mode must be one of recursive, independent/],
    [["scale", LEDGER, "--depth", "2", "--library", "tiny"], /--library must be one of basic, full/],
    [["scale", "/nonexistent/task", "--depth", "1"], /no such task folder/],
    [["scale", "verify", LEDGER], /not a RES child folder/],
  ])("%j", async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
