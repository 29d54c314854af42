import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { UserError } from "../../src/core/errors.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { registerScaleAgents } from "../../src/scale/agent/register.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import type { LineageNode } from "../../src/scale/lineage/store.js";
import { extractRequirements, protectedReads } from "../../src/scale/requirements.js";
import { tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { ALL_PASS, checkAndFollow } from "./support/check-and-follow.js";

/**
 * Most Harbor tasks check the agent's outputs against answers written into the tests: no file of
 * tests/ names an environment file. Their protected files are then the data files the instruction
 * or the reference solution names (the work's inputs), never the programs the agent edits.
 */
const HARBOR = resolve(import.meta.dirname, "../fixtures/harbor");
const CSV = join(HARBOR, "csv-aggregate");
const enc = (s: string) => new TextEncoder().encode(s);
const tree = (...paths: string[]) => new Map(paths.map((p) => [p, enc(`${p}\n`)]));

describe("the follow agent as the CLI registers it", () => {
  it("refuses missing options when it is made, before any trial runs", () => {
    registerScaleAgents();
    expect(() => createAgent("follow", {})).toThrow(/follow agent needs --agent-opt root=/);
    expect(createAgent("follow", { root: "/nowhere" }).name).toBe("follow");
  });
});

describe("which environment files a child protects", () => {
  const env = tree("report.py", "sales.csv", "data/a.json", "data/b.json", "Makefile", "notes.txt");

  it("the files the tests read, when they name any (the instruction is not consulted)", () => {
    const tests = tree("test.sh");
    tests.set("test.sh", enc('python3 check.py "/app/notes.txt"\n'));
    expect(protectedReads(tests, "/app", env, "Read /app/sales.csv.", new Map())).toEqual(["notes.txt"]);
  });

  it("else the data files the instruction names; programs and build files are left out", () => {
    const tests = new Map([["test_outputs.py", enc('assert open("/app/totals.csv").read() == "x"\n')]]);
    const text =
      "Fix `/app/report.py` (see the `Makefile`) so it reads `sales.csv` and the files of /app/data/.";
    expect(protectedReads(tests, "/app", env, text, new Map())).toEqual([
      "data/a.json",
      "data/b.json",
      "sales.csv",
    ]);
  });

  it("or those the reference solution names", () => {
    const solution = new Map([["solve.sh", enc("python3 report.py /app/notes.txt > /app/out.txt\n")]]);
    expect(protectedReads(new Map(), "/app", env, "Summarise the notes.", solution)).toEqual(["notes.txt"]);
  });

  it("csv-aggregate protects its sales ledger, not the script the agent fixes", () => {
    const req = extractRequirements(CSV);
    expect(req.protected.reads).toEqual(["sales.csv"]);
    expect(req.protected.facts.map((f) => f.path)).toEqual(["sales.csv"]);
  });

  const refusal = (taskDir: string) =>
    scaleTask({
      taskDir,
      outDir: join(tempDir("res-none"), "out"),
      depth: 1,
      children: 1,
      library: "basic",
      mode: "recursive",
      seed: 1,
      provider: getSandboxProvider("bwrap"),
    }).catch((e: unknown) => e);

  it("a task with no environment file in its workdir stays unscalable, and says so", async () => {
    const err = await refusal(join(HARBOR, "word-count"));
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /not scalable: no file of environment\/ reaches the agent's workdir \/app/,
    );
  });

  it("so does a Dockerfile task whose build leaves no file in its workdir", async () => {
    await ensureTestBaseImage();
    const err = await refusal(join(HARBOR, "user-roles"));
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /not scalable: no file of environment\/ reaches the agent's workdir \/app .*nor does its build leave any there/,
    );
  }, 300_000);

  it("so does one whose data files nothing names", async () => {
    const dir = join(tempDir("res-unnamed"), "csv-unnamed");
    cpSync(CSV, dir, { recursive: true });
    writeFileSync(join(dir, "instruction.md"), "The report script gives wrong totals. Fix it and run it.\n");
    const err = await refusal(dir);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/not scalable: neither tests\/ nor .* name a data file/);
  });
});

describe("csv-aggregate (a plain Harbor task: Dockerfile, pytest, fixed answers) scales", () => {
  const provider = getSandboxProvider("bwrap");
  const scratch = tempDir("res-harbor-inputs");
  const out = join(scratch, "lineage");
  let nodes: LineageNode[] = [];
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  beforeAll(async () => {
    await ensureTestBaseImage();
    registerScaleAgents();
    // With trials: each child's verification runs the parent's oracle after the restore steps
    // (R = 1.0) and the parent's bare oracle (R < 1) in real sandboxes over the task's image.
    const res = await scaleTask({
      taskDir: CSV,
      outDir: out,
      depth: 2,
      children: 1,
      library: "full",
      mode: "recursive",
      seed: 3,
      provider,
    });
    nodes = res.nodes;
  }, 600_000);

  it("every level is approved by the whole verifier", () => {
    const approved = nodes.filter((n) => n.status === "approved");
    expect(approved.map((n) => n.depth)).toEqual([1, 2]);
    for (const n of approved) {
      expect(n.diagnostics).toEqual([]);
      expect(n.checks.map((c) => `${c.name}:${c.status}`)).toEqual(ALL_PASS);
    }
  });

  it("the depth-2 child passes task check, and the public-words agent solves it", async () => {
    expect(await checkAndFollow(join(out, "csv-aggregate-b1-d2"), CSV, scratch)).toEqual([]);
  }, 300_000);
});
