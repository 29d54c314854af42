import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { readResJson } from "../../src/scale/child/res-json.js";
import { restoreChain } from "../../src/scale/child/spec-update.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { readLineage } from "../../src/scale/lineage/store.js";
import { registerTransform } from "../../src/scale/transforms/registry.js";
import { verifyChild } from "../../src/scale/verify/verify-child.js";
import { loadTasks } from "../../src/task/load.js";
import { tempDir } from "../runner/helpers.js";
import { GOOD_TOYS } from "./support/toy-transforms.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");
const provider = getSandboxProvider("bwrap");

describe("a depth-3 recursive lineage of ledger-report, verified with real sandboxes", () => {
  const out = join(tempDir("res-lineage"), "out");
  let result: Awaited<ReturnType<typeof scaleTask>>;
  const progress: string[] = [];

  beforeAll(async () => {
    for (const t of GOOD_TOYS) registerTransform(t);
    result = await scaleTask({
      taskDir: LEDGER,
      outDir: out,
      depth: 3,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 7,
      provider,
      log: (l) => progress.push(l),
    });
  }, 120_000);

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

  it("re-verifies a child from its folder alone (what `scale verify` does)", async () => {
    const v = await verifyChild(join(out, "ledger-report-b1-d2"), { provider, trials: false });
    expect(v.diagnostics).toEqual([]);
    expect(v.ok).toBe(true);
  });
});

describe("tasks RES cannot scale", () => {
  it("says so when the tests read no environment file", async () => {
    const harbor = resolve(import.meta.dirname, "../fixtures/harbor/csv-aggregate");
    const err = await scaleTask({
      taskDir: harbor,
      outDir: join(tempDir("res-none"), "out"),
      depth: 1,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 1,
      provider,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/not scalable as an environment-data task/);
  });
});
