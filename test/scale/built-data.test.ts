import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { docker } from "../../src/sandbox/image/docker-cli.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { registerScaleAgents } from "../../src/scale/agent/register.js";
import { appendedDockerfile } from "../../src/scale/built-data.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import type { LineageNode } from "../../src/scale/lineage/store.js";
import { copyEntries } from "../../src/scale/task-tree.js";
import { tempDir } from "../runner/helpers.js";
import { ensureTestBaseImage } from "../support/base-image.js";
import { ALL_PASS, checkAndFollow } from "./support/check-and-follow.js";

const SQLITE = resolve(import.meta.dirname, "../fixtures/harbor/sqlite-orders");

describe("the Dockerfile of an equivalent root (data made at build time)", () => {
  const built = new Map([
    ["orders.db", 1],
    ["data/b.csv", 1],
    ["data/a.csv", 1],
  ]);

  it("removes the built files, then copies them from the context, one COPY per top-level entry", () => {
    const back = { entries: copyEntries(new Map(), built), owner: null, user: null };
    expect(appendedDockerfile("FROM base\nWORKDIR /srv\n\n", "/srv", built, back)).toBe(
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

  it("copies a folder file by file when the build context has files of its own in it", () => {
    const back = { entries: copyEntries(new Map([["data/seed.py", 1]]), built), owner: null, user: null };
    const text = appendedDockerfile("FROM base\n", "/srv", built, back);
    expect(text.split("\n").filter((l) => l.startsWith("COPY"))).toEqual([
      "COPY data/a.csv /srv/data/a.csv",
      "COPY data/b.csv /srv/data/b.csv",
      "COPY orders.db /srv/orders.db",
    ]);
  });

  it("does so as root, and gives the image its USER back", () => {
    const x = new Map([["x", 1]]);
    const text = appendedDockerfile("FROM base\nWORKDIR /w\n", "/w", x, {
      entries: ["x"],
      owner: "7:7",
      user: "1000:1000",
    });
    expect(text.split("\n").slice(-6)).toEqual([
      "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
      "USER root",
      'RUN ["rm", "-f", "--", "/w/x"]',
      "COPY --chown=7:7 x /w/x",
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

const USER_DOCKERFILE = [
  "FROM longhaul-base:bookworm",
  "RUN useradd -m -u 1500 agent && mkdir -p /app && chown agent:agent /app",
  "USER agent",
  "WORKDIR /app",
  "RUN mkdir data && for i in 1 2 3; do printf 'id,v\\n%s,%s\\n' $i $((i * 7)) > data/part$i.csv; done",
  "",
].join("\n");

/** A Harbor-style task whose data a RUN makes (by default as a user other than root, in that user's WORKDIR). */
function userTask(dir: string, dockerfile = USER_DOCKERFILE): void {
  const files: Record<string, string> = {
    "task.toml": [
      'version = "1.0"',
      "[metadata]",
      'category = "data-processing"',
      "[verifier]",
      "timeout_sec = 120.0",
      "[agent]",
      "timeout_sec = 300.0",
      "[environment]",
      "build_timeout_sec = 600.0",
      "cpus = 1",
      "memory_mb = 1024",
      "",
    ].join("\n"),
    "instruction.md":
      "Add up column `v` of every CSV file in `/app/data/` and write the total to `/app/total.txt`.\n",
    "environment/Dockerfile": dockerfile,
    "solution/solve.sh":
      "#!/bin/bash\nawk -F, 'FNR > 1 { s += $2 } END { print s }' /app/data/*.csv > /app/total.txt\n",
    "tests/test.sh": [
      "#!/bin/bash",
      'if [ "$(cat /app/total.txt 2>/dev/null)" = 42 ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt',
      "",
    ].join("\n"),
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), text, { mode: p.endsWith(".sh") ? 0o755 : 0o644 });
  }
}

/** A lineage of one level from `task`, with trials. */
function oneLevel(task: string, outDir: string) {
  const provider = getSandboxProvider("bwrap");
  return scaleTask({
    taskDir: task,
    outDir,
    depth: 1,
    children: 1,
    library: "basic",
    mode: "recursive",
    seed: 5,
    provider,
  });
}

describe("data a RUN makes as another user", () => {
  const scratch = tempDir("res-built-user");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("goes back as that user's, as root, and the image keeps its USER", async () => {
    await ensureTestBaseImage();
    const task = join(scratch, "user-data");
    userTask(task);
    const out = join(scratch, "lineage");
    const r = await oneLevel(task, out);
    const dockerfile = readFileSync(join(out, "root", "user-data", "environment", "Dockerfile"), "utf8");
    // Owners are known where the image is unpacked as root (as in CI); elsewhere every file is
    // taken as root's.
    const chown = process.getuid?.() === 0 ? " --chown=1500:1500" : "";
    expect(dockerfile.trimEnd().split("\n").slice(-4)).toEqual([
      "USER root",
      'RUN ["rm", "-f", "--", "/app/data/part1.csv", "/app/data/part2.csv", "/app/data/part3.csv"]',
      `COPY${chown} data/ /app/data/`,
      "USER agent",
    ]);
    const child = r.nodes.find((n) => n.status === "approved");
    expect(child?.checks.map((c) => `${c.name}:${c.status}`)).toEqual(ALL_PASS);
    expect(existsSync(join(out, "user-data-b1-d1", "environment", "Dockerfile"))).toBe(true);
  }, 600_000);
});

describe("build-time data past the limit", () => {
  const scratch = tempDir("res-built-many");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("is refused with one line, and nothing is grown", async () => {
    await ensureTestBaseImage();
    const task = join(scratch, "many-files");
    userTask(
      task,
      "FROM longhaul-base:bookworm\nWORKDIR /app\nRUN mkdir data && cd data && seq 1 2001 | sed 's/$/.csv/' | xargs touch\n",
    );
    const out = join(scratch, "lineage");
    const err = await oneLevel(task, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      `${task}: the build makes more in /app than RES makes into files of the build context (at most 2000 files, 67108864 bytes)`,
    );
    expect(existsSync(join(out, "lineage.jsonl"))).toBe(false);
    expect(existsSync(join(out, "root", "many-files"))).toBe(false);
  }, 600_000);

  it("so is build-time data nothing names, before anything is written", async () => {
    const task = join(scratch, "unnamed");
    userTask(task);
    writeFileSync(join(task, "instruction.md"), "Write the answer, 42, to `/app/total.txt`.\n");
    writeFileSync(join(task, "solution", "solve.sh"), "#!/bin/bash\necho 42 > /app/total.txt\n");
    const out = join(scratch, "unnamed-lineage");
    const err = await oneLevel(task, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(
      /^\S+unnamed: not scalable: its build leaves 3 file\(s\) in the agent's workdir \/app, but neither tests\/ nor/,
    );
    expect(existsSync(out)).toBe(false);
  }, 600_000);
});

describe("data in a prebuilt image (task.toml's docker_image)", () => {
  const scratch = tempDir("res-built-prebuilt");
  const tag = "longhaul-test-prebuilt-data:1";
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("scales through an equivalent Dockerfile task FROM the image, its WORKDIR and USER kept", async () => {
    await ensureTestBaseImage();
    // The image as a registry would hand it over: built elsewhere, only its tag in task.toml.
    const made = await docker(["build", "--network", "host", "-q", "-t", tag, "-"], {
      stdin: `${USER_DOCKERFILE.replace("WORKDIR /app", "WORKDIR /srv/agent-data")}`.replace(
        "chown agent:agent /app",
        "mkdir -p /srv/agent-data && chown agent:agent /srv/agent-data",
      ),
    });
    expect(made.exitCode, made.stderr).toBe(0);
    const task = join(scratch, "prebuilt-data");
    userTask(task);
    rmSync(join(task, "environment"), { recursive: true });
    const toml = join(task, "task.toml");
    writeFileSync(
      toml,
      readFileSync(toml, "utf8").replace("[environment]\n", `[environment]\ndocker_image = "${tag}"\n`),
    );
    for (const f of ["instruction.md", "solution/solve.sh"]) {
      const p = join(task, f);
      writeFileSync(p, readFileSync(p, "utf8").replaceAll("/app/", "/srv/agent-data/"));
    }
    writeFileSync(
      join(task, "tests", "test.sh"),
      readFileSync(join(task, "tests", "test.sh"), "utf8").replace("/app/", "/srv/agent-data/"),
    );
    const out = join(scratch, "lineage");
    const r = await oneLevel(task, out);
    const root = join(out, "root", "prebuilt-data");
    expect(readFileSync(join(root, "task.toml"), "utf8")).not.toContain("docker_image");
    const chown = process.getuid?.() === 0 ? " --chown=1500:1500" : "";
    expect(
      readFileSync(join(root, "environment", "Dockerfile"), "utf8")
        .trimEnd()
        .split("\n"),
    ).toEqual([
      `FROM ${tag}`,
      "WORKDIR /srv/agent-data",
      "",
      "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
      "USER root",
      'RUN ["rm", "-f", "--", "/srv/agent-data/data/part1.csv", "/srv/agent-data/data/part2.csv", "/srv/agent-data/data/part3.csv"]',
      `COPY${chown} data/ /srv/agent-data/data/`,
      "USER agent",
    ]);
    expect(r.nodes.find((n) => n.status === "approved")?.checks.map((c) => `${c.name}:${c.status}`)).toEqual(
      ALL_PASS,
    );
  }, 600_000);
});

describe("data a RUN makes from files the Dockerfile copies into the workdir", () => {
  const scratch = tempDir("res-built-mixed");
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("moves the copied files aside in the context, so only the appended lines mirror", async () => {
    await ensureTestBaseImage();
    const task = join(scratch, "mixed-data");
    userTask(
      task,
      "FROM longhaul-base:bookworm\nWORKDIR /app\nCOPY gen.py /app/gen.py\nRUN python3 /app/gen.py\n",
    );
    writeFileSync(
      join(task, "environment", "gen.py"),
      [
        "import os",
        'os.makedirs("/app/data", exist_ok=True)',
        "for i in (1, 2, 3):",
        '    open("/app/data/part%d.csv" % i, "w").write("id,v\\n%d,%d\\n" % (i, 7 * i))',
        "",
      ].join("\n"),
    );
    const out = join(scratch, "lineage");
    const r = await oneLevel(task, out);
    const env = join(out, "root", "mixed-data", "environment");
    expect(readFileSync(join(env, ".res-built", "gen.py"), "utf8")).toContain("/app/data/part%d.csv");
    expect(readFileSync(join(env, "Dockerfile"), "utf8").trimEnd().split("\n")).toEqual([
      "FROM longhaul-base:bookworm",
      "WORKDIR /app",
      "COPY .res-built/gen.py /app/gen.py",
      "RUN python3 /app/gen.py",
      "",
      "# longhaul scale: the files the build made in WORKDIR, from the build context (docs/scale.md)",
      'RUN ["rm", "-f", "--", "/app/data/part1.csv", "/app/data/part2.csv", "/app/data/part3.csv", "/app/gen.py"]',
      "COPY data/ /app/data/",
      "COPY gen.py /app/gen.py",
    ]);
    expect(r.nodes.find((n) => n.status === "approved")?.checks.map((c) => `${c.name}:${c.status}`)).toEqual(
      ALL_PASS,
    );
  }, 600_000);
});
