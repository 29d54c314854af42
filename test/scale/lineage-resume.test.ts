import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { InputError, UserError } from "../../src/core/errors.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { type ScaleOptions, scaleTask } from "../../src/scale/lineage/scale.js";
import { LINEAGE_SETTINGS, readLineageSettings } from "../../src/scale/lineage/settings.js";
import {
  LINEAGE_DB,
  LINEAGE_JSONL,
  type LineageNode,
  readLineage,
  TARGET_TRIALS_DIR,
} from "../../src/scale/lineage/store.js";
import { tempDir } from "../runner/helpers.js";
import { cli } from "./support/cli.js";
import { decided, files } from "./support/lineage-compare.js";
import { spawnScale, waitFor } from "./support/spawn-scale.js";

const LEDGER = resolve(import.meta.dirname, "../fixtures/res/ledger-report");

function options(out: string, over: Partial<ScaleOptions> = {}): ScaleOptions {
  return {
    taskDir: LEDGER,
    outDir: out,
    depth: 3,
    children: 2,
    library: "full",
    mode: "recursive",
    seed: 5,
    provider: getSandboxProvider("bwrap"),
    trials: false,
    ...over,
  };
}

function sqliteCount(out: string): number {
  const db = new BetterSqlite3(join(out, LINEAGE_DB), { readonly: true });
  try {
    const row: unknown = db.prepare("SELECT COUNT(*) AS n FROM nodes").get();
    return typeof row === "object" && row !== null && "n" in row ? Number(row.n) : -1;
  } finally {
    db.close();
  }
}

const references = new Map<string, Promise<{ out: string; nodes: LineageNode[] }>>();

/**
 * The lineage grown in one go, the reference every resumed run must equal. Grown once per file
 * for each set of settings (several cases compare with the same one); no case writes into it.
 */
function reference(over: Partial<ScaleOptions> = {}): Promise<{ out: string; nodes: LineageNode[] }> {
  const key = JSON.stringify(over);
  let ref = references.get(key);
  if (ref === undefined) {
    const out = join(tempDir("res-resume-ref"), "out");
    ref = scaleTask(options(out, over)).then((r) => ({ out, nodes: r.nodes }));
    references.set(key, ref);
  }
  return ref;
}

function expectSameLineage(
  out: string,
  got: LineageNode[],
  want: { out: string; nodes: LineageNode[] },
): void {
  expect(got.map(decided)).toEqual(want.nodes.map(decided));
  for (const n of got.filter((x) => x.status === "approved")) {
    expect(files(join(out, n.dir ?? "?"))).toEqual(files(join(want.out, n.dir ?? "?")));
  }
  // lineage.jsonl and the SQLite table hold every node once.
  expect(
    readLineage(out)
      .map((n) => n.id)
      .sort(),
  ).toEqual(got.map((n) => n.id).sort());
  expect(sqliteCount(out)).toBe(got.length);
}

describe("scale --resume: an interrupted lineage goes on as if it had not stopped", () => {
  it("a shallower lineage resumed deeper equals the lineage grown in one go", async () => {
    const want = await reference();
    const out = join(tempDir("res-resume"), "out");
    const first = await scaleTask(options(out, { depth: 1 }));
    expect(first.grown).toBe(3);
    const r = await scaleTask(options(out, { resume: true }));
    expect(r.grown).toBe(4);
    expectSameLineage(out, r.nodes, want);
    expect(readLineageSettings(out)?.depth).toBe(3);
    // Nothing left to grow: a second resume adds nothing.
    const again = await scaleTask(options(out, { resume: true }));
    expect(again.grown).toBe(0);
    const tree = await cli(["scale", "tree", out]);
    expect(tree.stdout).toContain("ledger-report-b2-d3");
    expect(tree.stdout).not.toContain("not finished");
    expect(again.nodes.map(decided)).toEqual(want.nodes.map(decided));
  }, 120_000);

  it("mends what a kill leaves (a torn last line, a table one short, staged and unrecorded folders)", async () => {
    const want = await reference();
    const out = join(tempDir("res-resume-kill"), "out");
    // Stopped (as by Ctrl-C) once the first child is approved.
    const controller = new AbortController();
    const stopped = scaleTask(
      options(out, {
        concurrency: 1,
        signal: controller.signal,
        log: (line) => {
          if (line.includes("-b1-d1: approved")) controller.abort(new Error("SIGINT"));
        },
      }),
    );
    await expect(stopped).rejects.toThrow("SIGINT");
    const kept = readLineage(out);
    expect(kept.map((n) => n.id)).toEqual(["ledger-report", "ledger-report-b1-d1"]);
    const tree = await cli(["scale", "tree", out]);
    expect(tree.stdout).toContain(
      `not finished (chain 1 at depth 1 of 3, chain 2 at depth 0 of 3); go on with: longhaul scale --resume --out ${out}`,
    );
    // What a kill -9 could leave: a candidate being verified, the next child renamed into place
    // but not recorded, a half-written line, and the SQLite row of the last node missing.
    mkdirSync(join(out, ".stage-ledger-report-b1-d2"));
    cpSync(join(out, "ledger-report-b1-d1"), join(out, "ledger-report-b1-d2"), { recursive: true });
    writeFileSync(join(out, "ledger-report-b1-d2", "stray.txt"), "from the killed run");
    // The marker the run writes before the rename into place, and removes once the node is recorded.
    writeFileSync(join(out, ".unrecorded-ledger-report-b1-d2"), "");
    const torn = '{"id":"ledger-report-b1-d2","parent":"ledger-re';
    appendFileSync(join(out, LINEAGE_JSONL), torn);
    const db = new BetterSqlite3(join(out, LINEAGE_DB));
    db.prepare("DELETE FROM nodes WHERE id = ?").run("ledger-report-b1-d1");
    db.close();
    const lines: string[] = [];
    const r = await scaleTask(options(out, { resume: true, log: (l) => lines.push(l) }));
    expectSameLineage(out, r.nodes, want);
    expect(readFileSync(join(out, `${LINEAGE_JSONL}.torn`), "utf8")).toBe(torn);
    expect(existsSync(join(out, ".stage-ledger-report-b1-d2"))).toBe(false);
    expect(existsSync(join(out, "ledger-report-b1-d2", "stray.txt"))).toBe(false);
    expect(lines.join("\n")).toMatch(
      /ledger-report-b1-d2: left by the interrupted run but not in the lineage/,
    );
    expect(lines.join("\n")).toMatch(/chain 1: resuming at depth 2/);
  }, 120_000);

  it("a stop during verification ends with the stop, not with the sandbox error it caused", async () => {
    const out = join(tempDir("res-resume-stop-verify"), "out");
    const controller = new AbortController();
    const run = scaleTask(
      options(out, {
        depth: 2,
        children: 1,
        trials: true,
        signal: controller.signal,
        log: (line) => {
          if (line.includes("-b1-d1 attempt 1:"))
            setTimeout(() => controller.abort(new Error("SIGINT")), 150);
        },
      }),
    );
    await expect(run).rejects.toThrow(/^SIGINT$/);
    expect(readLineage(out).map((n) => n.status)).toEqual(["root"]);
    // Nothing was recorded for the stopped child: a resume grows it.
    const r = await scaleTask(options(out, { depth: 1, children: 1, trials: true, resume: true }));
    expect(r.nodes.map((n) => [n.id, n.status])).toEqual([
      ["ledger-report", "root"],
      ["ledger-report-b1-d1", "approved"],
    ]);
  }, 120_000);

  it("refuses settings that would grow other children, naming the field, and adds nothing", async () => {
    const out = join(tempDir("res-resume-fixed"), "out");
    await scaleTask(options(out, { depth: 1, children: 1 }));
    const before = readFileSync(join(out, LINEAGE_JSONL), "utf8");
    for (const [over, field] of [
      [{ seed: 6 }, "seed"],
      [{ library: "basic" }, "library"],
      [{ stepsPerLevel: 3 }, "steps"],
      [{ trials: true }, "trials"],
      [{ mode: "independent" }, "mode"],
    ] as const) {
      const r = scaleTask(options(out, { ...over, resume: true, children: 1 }));
      await expect(r).rejects.toBeInstanceOf(InputError);
      await expect(r).rejects.toThrow(`${join(out, LINEAGE_SETTINGS)}: field "${field}"`);
    }
    expect(readFileSync(join(out, LINEAGE_JSONL), "utf8")).toBe(before);
    // A fresh run over it points at --resume; a resume where there is no lineage says so.
    await expect(scaleTask(options(out))).rejects.toThrow(/continue it with --resume/);
    const empty = join(tempDir("res-resume-none"), "out");
    await expect(scaleTask(options(empty, { resume: true }))).rejects.toThrow(/holds no lineage to resume/);
    // A lineage from before settings were recorded cannot be resumed.
    rmSync(join(out, LINEAGE_SETTINGS));
    await expect(scaleTask(options(out, { resume: true, children: 1 }))).rejects.toThrow(
      /has no scale\.json .* cannot be resumed/,
    );
  }, 120_000);

  it("refuses a root task that changed since the lineage began", async () => {
    const root = join(tempDir("res-resume-root"), "ledger-report");
    cpSync(LEDGER, root, { recursive: true });
    const out = join(tempDir("res-resume-root-out"), "out");
    await scaleTask(options(out, { taskDir: root, depth: 1, children: 1 }));
    appendFileSync(join(root, "instruction.md"), "\nOne more line.\n");
    const r = scaleTask(options(out, { taskDir: root, children: 1, resume: true }));
    await expect(r).rejects.toThrow(/field "root_checksum".*the root task has changed/);
  }, 120_000);

  it("refuses to grow from an approved child edited since; a target agent's attempts leave it as it was", async () => {
    const out = join(tempDir("res-resume-edited"), "out");
    const target = { agent: "oracle", model: null, attempts: 1 };
    // Without the verifier's oracle trials: they run on the staged candidate, before the approved
    // folder's checksum is taken, so only the target agent's attempts run on the approved child.
    const first = await scaleTask(options(out, { depth: 1, children: 1, target }));
    expect(first.nodes[1]?.target?.passed).toBe(true);
    expect(first.nodes[1]?.checksum).toMatch(/^[0-9a-f]{64}$/);
    const again = await scaleTask(options(out, { depth: 2, children: 1, target, resume: true }));
    expect(again.grown).toBe(1);
    appendFileSync(join(out, "ledger-report-b1-d2", "instruction.md"), "\nAn edit.\n");
    const r = scaleTask(options(out, { depth: 3, children: 1, target, resume: true }));
    await expect(r).rejects.toThrow(
      /ledger-report-b1-d2: the approved child has changed since it was approved/,
    );
  }, 120_000);

  it("keeps the target agent's attempts that finished before the stop, and runs the rest", async () => {
    const out = join(tempDir("res-resume-target"), "out");
    const target = { agent: "oracle", model: null, attempts: 2 };
    const controller = new AbortController();
    const stopped = scaleTask(
      options(out, {
        depth: 1,
        children: 1,
        target,
        signal: controller.signal,
        log: (line) => {
          if (line.includes("target oracle attempt 1: R =")) controller.abort(new Error("SIGINT"));
        },
      }),
    );
    await expect(stopped).rejects.toThrow("SIGINT");
    expect(readLineage(out).map((n) => n.status)).toEqual(["root"]);
    const first = join(out, TARGET_TRIALS_DIR, "ledger-report-b1-d1", "a1", "result.json");
    const before = readFileSync(first, "utf8");
    const lines: string[] = [];
    const r = await scaleTask(
      options(out, { depth: 1, children: 1, target, resume: true, log: (l) => lines.push(l) }),
    );
    expect(r.nodes[1]?.target?.rewards).toEqual([1, 1]);
    expect(lines.join("\n")).toMatch(/attempt 1: R = 1, kept from the interrupted run/);
    expect(lines.join("\n")).toMatch(/target oracle attempt 2: R = 1 \(/);
    expect(readFileSync(first, "utf8")).toBe(before);
  }, 120_000);

  it("independent: more children may be added, a deeper plan may not", async () => {
    const mode = "independent" as const;
    const want = await reference({ mode, depth: 2, children: 3 });
    const out = join(tempDir("res-resume-ind"), "out");
    await scaleTask(options(out, { mode, depth: 2, children: 1 }));
    // Asked for 3 children where 1 was grown: `scale tree` says which are missing.
    writeFileSync(
      join(out, LINEAGE_SETTINGS),
      readFileSync(join(out, LINEAGE_SETTINGS), "utf8").replace('"children": 1', '"children": 3'),
    );
    const tree = await cli(["scale", "tree", out]);
    expect(tree.stdout).toContain("not finished (child 2 not grown, child 3 not grown)");
    const deeper = scaleTask(options(out, { mode, depth: 3, children: 1, resume: true }));
    await expect(deeper).rejects.toThrow(/field "depth"/);
    const r = await scaleTask(options(out, { mode, depth: 2, children: 3, resume: true }));
    expect(r.grown).toBe(2);
    expectSameLineage(out, r.nodes, want);
    expect(readLineageSettings(out)?.children).toBe(3);
  }, 120_000);

  it("the command takes the lineage's settings for options it is not given, and TASK from it", async () => {
    const base = tempDir("res-resume-cli");
    const out = join(base, "out");
    const common = ["--seed", "5", "--no-trials", "--children", "2", "--out", out];
    const first = await cli(["scale", LEDGER, "--depth", "1", ...common]);
    expect(first.code, first.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(out, LINEAGE_SETTINGS), "utf8"));
    expect(settings).toMatchObject({ seed: 5, trials: false, children: 2, depth: 1, proposer: "seeded" });
    // Neither TASK nor --seed, --no-trials, --children: all from scale.json.
    const r = await cli(["scale", "--resume", "--out", out, "--depth", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ledger-report-b2-d2 +ledger-report-b2-d1 +2 +approved/);
    expect(readLineage(out).filter((n) => n.status === "approved")).toHaveLength(4);
    const bad = await cli(["scale", LEDGER, "--resume", "--out", out, "--seed", "9"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/field "seed": the lineage was grown with 5, but this run asks for 9/);
    const none = await cli(["scale", "--resume"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/scale needs a task folder/);
  }, 120_000);

  it.each(["SIGTERM", "SIGKILL"] as const)(
    "the command stopped by %s leaves a lineage that resumes to the same children",
    async (signal) => {
      const want = await reference({ depth: 4, children: 1 });
      const out = join(tempDir(`res-resume-${signal}`), "out");
      const args = [LEDGER, "--depth", "4", "--seed", "5", "--no-trials", "--out", out];
      const { child, stderr, exit } = spawnScale(args);
      await waitFor(() => stderr().includes("-b1-d1: approved"), 60_000);
      child.kill(signal);
      const code = await exit;
      if (signal === "SIGTERM") {
        expect(code).toBe(130);
        expect(stderr()).toContain(
          `SIGTERM: stopping; approved children are kept. Continue with: longhaul scale ${LEDGER} --resume --out ${out}`,
        );
        expect(stderr()).not.toMatch(/internal error/);
      }
      const kept = readLineage(out).filter((n) => n.status === "approved").length;
      // kill -9 may land between a child's approval and its record: then its folder is not in the
      // lineage yet, and the resume grows it again.
      expect(kept).toBeGreaterThanOrEqual(signal === "SIGTERM" ? 1 : 0);
      expect(kept).toBeLessThan(4);
      const r = await scaleTask(options(out, { depth: 4, children: 1, resume: true }));
      expect(r.grown).toBe(4 - kept);
      expectSameLineage(out, r.nodes, want);
    },
    120_000,
  );

  it("a UserError is what an unreadable scale.json gives, naming the file and field", () => {
    const dir = tempDir("res-resume-bad-settings");
    writeFileSync(
      join(dir, LINEAGE_SETTINGS),
      JSON.stringify({ format: "longhaul-res-lineage", version: 1 }),
    );
    expect(() => readLineageSettings(dir)).toThrow(UserError);
    expect(() => readLineageSettings(dir)).toThrow(/scale\.json: field "root"/);
    writeFileSync(join(dir, LINEAGE_SETTINGS), "{");
    expect(() => readLineageSettings(dir)).toThrow(/scale\.json: not JSON/);
  });
});
