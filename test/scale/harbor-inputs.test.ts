import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent } from "../../src/agents/registry.js";
import { UserError } from "../../src/core/errors.js";
import { checkTask } from "../../src/runner/check-task.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { registerScaleAgents } from "../../src/scale/agent/register.js";
import { appendedDockerfile } from "../../src/scale/built-data.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import type { LineageNode } from "../../src/scale/lineage/store.js";
import { extractRequirements, protectedReads } from "../../src/scale/requirements.js";
import { loadTask } from "../../src/task/load.js";
import { tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { runOneTrial } from "../support/one-trial.js";

/**
 * Most Harbor tasks check the agent's outputs against answers written into the tests: no file of
 * tests/ names an environment file. Their protected files are then the data files the instruction
 * or the reference solution names (the work's inputs), never the programs the agent edits.
 */
const HARBOR = resolve(import.meta.dirname, "../fixtures/harbor");
const CSV = join(HARBOR, "csv-aggregate");
const SQLITE = join(HARBOR, "sqlite-orders");
/** A child approved by every check of the verifier, in its order. */
const ALL_PASS = ["protected:pass", "reproducible:pass", "leak:pass", "restore:pass", "oracle:pass"];
const enc = (s: string) => new TextEncoder().encode(s);
const tree = (...paths: string[]) => new Map(paths.map((p) => [p, enc(`${p}\n`)]));

/**
 * What goes wrong with a child: the checks of `task check` (one seed) it fails, and the
 * public-words agent's result when it is not R = 1. The agent sees the child without its
 * solution, and knows only the root task's skill (`root`'s solution).
 */
async function checkAndFollow(child: string, root: string, scratch: string): Promise<string[]> {
  const provider = getSandboxProvider("bwrap");
  const check = await checkTask(await loadTask(child), { provider, seeds: [1000] });
  const wrong = check.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  const bare = join(scratch, "agent-copy", basename(child));
  cpSync(child, bare, { recursive: true });
  rmSync(join(bare, "solution"), { recursive: true, force: true });
  rmSync(join(bare, "res.json"), { force: true });
  const r = await runOneTrial({
    dir: bare,
    agent: "follow",
    agentOptions: { root },
    seed: 1000,
    jobId: "harbor-inputs",
    trialId: `follow-${basename(child)}`,
    trialDir: join(scratch, "trials", `follow-${basename(child)}`),
    imagesDir: join(scratch, "images"),
    provider,
  });
  if (r.reward !== 1) wrong.push(`follow agent: R=${r.reward} ${r.error?.message ?? ""}`.trim());
  return wrong;
}

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

describe("the Dockerfile of an equivalent root (data made at build time)", () => {
  const built = new Map([
    ["orders.db", 1],
    ["data/b.csv", 1],
    ["data/a.csv", 1],
  ]);

  it("removes the built files, then copies them from the context, one COPY per top-level entry", () => {
    expect(appendedDockerfile("FROM base\nWORKDIR /srv\n\n", "/srv", built)).toBe(
      [
        "FROM base",
        "WORKDIR /srv",
        "",
        "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
        'RUN ["rm", "-f", "--", "/srv/data/a.csv", "/srv/data/b.csv", "/srv/orders.db"]',
        "COPY data/ /srv/data/",
        "COPY orders.db /srv/orders.db",
        "",
      ].join("\n"),
    );
  });

  it("does so as root, and gives the image its last USER back", () => {
    const text = appendedDockerfile(
      "FROM base\nUSER app\nWORKDIR /w\nUSER 1000:1000",
      "/w",
      new Map([["x", 1]]),
    );
    expect(text.split("\n").slice(-6)).toEqual([
      "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
      "USER root",
      'RUN ["rm", "-f", "--", "/w/x"]',
      "COPY x /w/x",
      "USER 1000:1000",
      "",
    ]);
  });
});

describe("sqlite-orders (its database made by a RUN at build time) scales through an equivalent root", () => {
  const provider = getSandboxProvider("bwrap");
  const scratch = tempDir("res-built-data");
  const out = join(scratch, "lineage");
  const base = {
    outDir: out,
    children: 1,
    library: "full" as const,
    mode: "recursive" as const,
    seed: 3,
    provider,
  };
  let nodes: LineageNode[] = [];
  const logs: string[] = [];
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  beforeAll(async () => {
    await ensureTestBaseImage();
    registerScaleAgents();
    const res = await scaleTask({ ...base, taskDir: SQLITE, depth: 2, log: (l) => logs.push(l) });
    nodes = res.nodes;
  }, 600_000);

  it("the equivalent root holds the built database as a context file its Dockerfile copies", () => {
    const root = join(out, "root", "sqlite-orders");
    expect(nodes.find((n) => n.status === "root")?.dir).toBe(root);
    expect(
      logs.some((l) => l.includes(`1 file(s) the build makes in /srv/shop are context files of ${root}`)),
    ).toBe(true);
    // SQLite's header: the file is the database the build made, not an empty stand-in.
    expect(
      readFileSync(join(root, "environment", "orders.db"))
        .subarray(0, 15)
        .toString(),
    ).toBe("SQLite format 3");
    const dockerfile = readFileSync(join(root, "environment", "Dockerfile"), "utf8");
    expect(dockerfile.startsWith(readFileSync(join(SQLITE, "environment", "Dockerfile"), "utf8"))).toBe(true);
    expect(dockerfile.trimEnd().split("\n").slice(-2)).toEqual([
      'RUN ["rm", "-f", "--", "/srv/shop/orders.db"]',
      "COPY orders.db /srv/shop/orders.db",
    ]);
    // The task given is left as it was.
    expect(existsSync(join(SQLITE, "environment", "orders.db"))).toBe(false);
  });

  it("every level is approved by the whole verifier, over images without the built file", () => {
    const approved = nodes.filter((n) => n.status === "approved");
    expect(approved.map((n) => n.depth)).toEqual([1, 2]);
    for (const n of approved) {
      expect(n.checks.map((c) => `${c.name}:${c.status}`)).toEqual(ALL_PASS);
      const dockerfile = readFileSync(join(out, n.id, "environment", "Dockerfile"), "utf8");
      expect(dockerfile).toContain('RUN ["rm", "-f", "--", "/srv/shop/orders.db"]');
      expect(dockerfile).not.toContain("COPY orders.db");
    }
  });

  it("the depth-2 child passes task check, and the public-words agent solves it", async () => {
    expect(await checkAndFollow(join(out, "sqlite-orders-b1-d2"), SQLITE, scratch)).toEqual([]);
  }, 300_000);

  it("a resume given the original task goes on from the equivalent root", async () => {
    const more: string[] = [];
    const res = await scaleTask({
      ...base,
      taskDir: SQLITE,
      depth: 3,
      resume: true,
      log: (l) => more.push(l),
    });
    expect(res.nodes.filter((n) => n.status === "approved").map((n) => n.depth)).toEqual([1, 2, 3]);
    expect(res.nodes.find((n) => n.status === "root")?.dir).toBe(join(out, "root", "sqlite-orders"));
    expect(more.some((l) => l.includes("context files of"))).toBe(false);
  }, 300_000);
});
