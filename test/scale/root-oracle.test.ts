import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { lineageCost } from "../../src/scale/lineage/render.js";
import { type RootChecks, verifyRoot } from "../../src/scale/lineage/root-check.js";
import type { ScaleOptions } from "../../src/scale/lineage/scale.js";
import { readLineage } from "../../src/scale/lineage/store.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

/** A copy of ledger-report with `edit` applied to its folder. */
function rootWith(name: string, edit: (dir: string) => void): { root: string; out: string } {
  const base = tempDir("res-root-oracle");
  const root = join(base, name);
  cpSync(LEDGER, root, { recursive: true });
  edit(root);
  return { root, out: join(base, "out") };
}

const scale = (root: string, out: string, ...more: string[]) =>
  cli(["scale", root, "--depth", "1", "--library", "basic", "--repairs", "0", "--out", out, ...more]);

/** The one line a UserError prints (the CLI's last stderr line). */
function lastLine(stderr: string): string {
  return stderr.trimEnd().split("\n").at(-1) ?? "";
}

/**
 * `scale` runs the root's own oracle once before planning: a root whose oracle does not reach
 * R = 1.0 would otherwise use up every proposal and repair and end as a discarded child with
 * `oracle-fails`, its real reason shown only in `scale tree`.
 */
describe("scale checks the root's own oracle first", () => {
  it("refuses a root whose solve.sh has CRLF line endings, naming the task, before any lineage is written", async () => {
    const { root, out } = rootWith("ledger-crlf", (dir) => {
      const p = join(dir, "solution/solve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replaceAll("\n", "\r\n"));
    });
    const r = await scale(root, out);
    expect(r.code).toBe(2);
    const line = lastLine(r.stderr);
    expect(line).toContain(root);
    expect(line).toMatch(
      /the root task's own oracle scores R = 0 \(agent_error: solution\/solve\.sh exited .*\); solution\/solve\.sh has CRLF \(Windows\) line endings, not 1\.0/,
    );
    expect(r.stderr).not.toMatch(/attempt 1/);
    expect(existsSync(join(out, "lineage.jsonl"))).toBe(false);
  }, 120_000);

  it("refuses a root whose solution scores R < 1, naming the failing subtask", async () => {
    const { root, out } = rootWith("ledger-wrong", (dir) => {
      const p = join(dir, "solution/solve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replace('"orders": n,', '"orders": n + 1,'));
    });
    const r = await scale(root, out);
    expect(r.code).toBe(2);
    const line = lastLine(r.stderr);
    expect(line).toContain(root);
    // ledger-report's grader has one subtask, `reward`.
    expect(line).toMatch(/own oracle scores R = 0 \(failing subtasks: reward=0\.000/);
    expect(existsSync(join(out, "lineage.jsonl"))).toBe(false);
  }, 120_000);

  it("is an infrastructure failure (exit 3) when the root's trial cannot run", async () => {
    // An image no machine can build, fast and offline: an empty base has no shell for the RUN.
    const { root, out } = rootWith("ledger-noimage", (dir) => {
      const file = ["FROM scratch", "WORKDIR /app", "COPY data/ /app/data/", "RUN false", ""].join("\n");
      writeFileSync(join(dir, "environment/Dockerfile"), file);
    });
    const r = await scale(root, out);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the root's oracle trial cannot run/);
    expect(existsSync(join(out, "lineage.jsonl"))).toBe(false);
  }, 120_000);

  it("records the verified root, and a resume does not run the check again", async () => {
    const { root, out } = rootWith("ledger-ok", () => {});
    const first = await scale(root, out);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/checking the root's own oracle/);
    const rootNode = readLineage(out).find((n) => n.status === "root");
    expect(rootNode?.checks).toEqual([
      { name: "oracle", status: "pass", detail: "the root's oracle scores R = 1.0 (seed 1000)" },
    ]);
    // Its trial is construction work too, reported on its own line beside the children's cost.
    expect(rootNode?.seconds).toBeGreaterThan(0);
    expect(lineageCost(readLineage(out)).construction.rootCheck).toBeCloseTo(rootNode?.seconds ?? -1, 2);
    expect(first.stdout).toMatch(/^root check \(the root's oracle, before planning\): [\d.]+ s$/m);
    const again = await cli(["scale", "--resume", "--out", out, "--depth", "2"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/checking the root's own oracle/);
    expect(
      readLineage(out)
        .filter((n) => n.status === "approved")
        .map((n) => n.depth),
    ).toEqual([1, 2]);
  }, 300_000);

  it("runs one trial for several lineages of one root that share their checks (scale experiment)", async () => {
    const rootChecks: RootChecks = new Map();
    const lines: string[] = [];
    const o = { provider: getSandboxProvider("bwrap"), rootChecks } as ScaleOptions;
    const log = (l: string): void => void lines.push(l);
    const [a, b] = await Promise.all([verifyRoot(LEDGER, o, log), verifyRoot(LEDGER, o, log)]);
    expect(a.check).toEqual(b.check);
    expect(b.seconds).toBe(0);
    expect(lines.filter((l) => l.includes("checking the root's own oracle")).length).toBe(1);
  }, 120_000);
});
