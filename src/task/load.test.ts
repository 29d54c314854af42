import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../core/errors.js";
import { taskChecksum } from "./checksum.js";
import { checkHostTools, findOnPath } from "./host-tools.js";
import { loadTask, loadTasks } from "./load.js";

/** A minimal valid task folder; `files` adds or overrides (null leaves a file out). */
function makeTask(parent: string, name: string, files: Record<string, string | null> = {}): string {
  const dir = join(parent, name);
  const all: Record<string, string | null> = {
    "task.toml": '[metadata]\ncategory = "demo"\n',
    "instruction.md": `Do ${name}.\n`,
    "environment/data.txt": "1,2,3\n",
    "solution/solve.sh": "#!/bin/sh\necho ok\n",
    "tests/test.sh": "#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n",
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    if (text === null) continue;
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const tmp = () => mkdtempSync(join(tmpdir(), "lh-task-"));

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Error) return e;
  }
  throw new Error("expected a rejection");
}

describe("loadTask", () => {
  it("refuses a task whose containers only a docker-compose.yaml defines, and warns beside a Dockerfile", async () => {
    const compose = "services:\n  main:\n    build: .\n  db:\n    image: postgres:16\n";
    const only = makeTask(tmp(), "compose-only", { "environment/docker-compose.yaml": compose });
    const e = await rejection(loadTask(only));
    expect(e.message).toBe(
      `${join(only, "environment/docker-compose.yaml")}: defines the task's containers, and longhaul does not read compose files; give the task an environment/Dockerfile or [environment] docker_image`,
    );
    const both = makeTask(tmp(), "compose-too", {
      "environment/docker-compose.yaml": compose,
      "environment/Dockerfile": "FROM longhaul-base:bookworm\n",
    });
    expect((await loadTask(both)).warnings).toEqual([
      `${join(both, "environment/docker-compose.yaml")}: not applied: longhaul runs the task's image alone, without the services or settings this file adds in Harbor`,
    ]);
  });

  it("warns about a script with Windows line endings, naming it, and not about one without", async () => {
    const dir = makeTask(tmp(), "crlf", {
      "tests/test.sh": "#!/bin/bash\r\necho 1 > /logs/verifier/reward.txt\r\n",
      "solution/partial.sh": "#!/bin/bash\r\necho half\r\n",
      "instruction.md": "Windows notes are fine here.\r\n",
    });
    const t = await loadTask(dir);
    const why = "has Windows line endings (CRLF), which bash does not read; convert it to LF (e.g. dos2unix)";
    expect(t.warnings).toEqual([
      `${join(dir, "tests/test.sh")}: ${why}`,
      `${join(dir, "solution/partial.sh")}: ${why}`,
    ]);
  });

  it("refuses instruction.md and task.toml with bytes that are not UTF-8, naming the file and line", async () => {
    // Decoded as they were, the agent got U+FFFD where the author wrote a Latin-1 é, silently.
    const instr = makeTask(tmp(), "latin1-instruction");
    writeFileSync(join(instr, "instruction.md"), Buffer.from("Read the file.\nCaf\xe9 menu.\n", "latin1"));
    expect((await rejection(loadTask(instr))).message).toBe(
      `${join(instr, "instruction.md")}:2: holds bytes that are not UTF-8; save the file as UTF-8`,
    );
    const toml = makeTask(tmp(), "latin1-toml");
    writeFileSync(join(toml, "task.toml"), Buffer.from('[metadata]\nauthor_name = "Jos\xe9"\n', "latin1"));
    expect((await rejection(loadTask(toml))).message).toBe(
      `${join(toml, "task.toml")}:2: holds bytes that are not UTF-8; save the file as UTF-8`,
    );
    // UTF-8, U+FFFD itself included, loads as written.
    const ok = makeTask(tmp(), "utf8", { "instruction.md": "Caf\u00e9 \ufffd\n" });
    expect((await loadTask(ok)).instruction).toBe("Caf\u00e9 \ufffd\n");
  });

  it("loads a task with its config, instruction, paths, checksum and implicit rubric", async () => {
    const dir = makeTask(tmp(), "alpha");
    const t = await loadTask(dir);
    expect(t.name).toBe("alpha");
    expect(t.dir).toBe(dir);
    expect(t.config.metadata.category).toBe("demo");
    expect(t.instruction).toBe("Do alpha.\n");
    expect(t.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(t.rubric.source).toBeNull();
    expect(t.rubric.subtasks.map((s) => s.id)).toEqual(["reward"]);
    expect(t.paths.tests).toBe(join(dir, "tests"));
    expect(t.paths.environment).toBe(join(dir, "environment"));
  });

  it("takes the name from [task] and reads tests/rubric.toml", async () => {
    const dir = makeTask(tmp(), "folder", {
      "task.toml": '[task]\nname = "named"\n',
      "tests/rubric.toml": '[[subtask]]\nid = "x"\nweight = 2\nkind = "binary"\nvisibility = "public"\n',
    });
    const t = await loadTask(dir);
    expect(t.name).toBe("named");
    expect(t.rubric).toMatchObject({ source: "tests/rubric.toml", subtasks: [{ id: "x", weight: 2 }] });
  });

  it("names every missing required file", async () => {
    const dir = makeTask(tmp(), "gaps", { "instruction.md": null, "tests/test.sh": null });
    const e = await rejection(loadTask(dir));
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toContain(join(dir, "instruction.md"));
    expect(e.message).toContain(join(dir, "tests/test.sh"));
  });

  it("loads a task without solution/solve.sh (only the oracle needs it)", async () => {
    const dir = makeTask(tmp(), "nosolve", { "solution/solve.sh": null });
    const t = await loadTask(dir);
    expect(t.name).toBe("nosolve");
    expect(existsSync(join(t.paths.solution, "solve.sh"))).toBe(false);
  });

  it("reports config errors with the path as given, relative", async () => {
    const dir = makeTask(tmp(), "bad", { "task.toml": '[agent]\ntimeout_sec = "soon"\n' });
    const rel = relative(process.cwd(), dir);
    const e = await rejection(loadTask(rel));
    expect(e.message).toBe(`${rel}/task.toml:2: [agent] timeout_sec must be a positive number, got "soon"`);
  });

  it("reports rubric errors with the rubric's path", async () => {
    const dir = makeTask(tmp(), "badrubric", { "tests/rubric.toml": '[[subtask]]\nid = "x"\nweight = -1\n' });
    const e = await rejection(loadTask(dir));
    expect(e.message).toMatch(new RegExp(`^${dir}/tests/rubric\\.toml:3: \\[\\[subtask\\]\\] #1 weight`));
  });

  it("refuses a folder without task.toml", async () => {
    const dir = makeTask(tmp(), "nocfg", { "task.toml": null });
    expect((await rejection(loadTask(dir))).message).toBe(`${dir}/task.toml: missing (not a task folder)`);
  });
});

describe("loadTasks", () => {
  it("expands datasets, mixes in single tasks, and sorts by name", async () => {
    const root = tmp();
    const ds = join(root, "ds");
    makeTask(ds, "zeta");
    makeTask(ds, "beta");
    mkdirSync(join(ds, "not-a-task"));
    mkdirSync(join(ds, ".hidden"));
    writeFileSync(join(ds, "README.md"), "a dataset\n");
    const single = makeTask(root, "mid");
    const tasks = await loadTasks([ds, single, join(ds, "beta")]);
    expect(tasks.map((t) => t.name)).toEqual(["beta", "mid", "zeta"]);
  });

  it("reads instruction.md through a link inside the task, never one that leads out of it", async () => {
    const secret = join(tmp(), "credentials");
    writeFileSync(secret, "aws_secret_access_key = do-not-send\n");
    const out = makeTask(tmp(), "linked-out", { "instruction.md": null });
    symlinkSync(secret, join(out, "instruction.md"));
    const e = await rejection(loadTask(out));
    expect(e).toBeInstanceOf(UserError);
    expect(e.message).toMatch(
      /instruction\.md: is a symbolic link to .*credentials, outside the task folder/,
    );
    expect(e.message).not.toContain("do-not-send");
    // A relative link that climbs out is the same.
    rmSync(join(out, "instruction.md"));
    symlinkSync(join("..", "..", relative(join(out, "..", ".."), secret)), join(out, "instruction.md"));
    expect((await rejection(loadTask(out))).message).toMatch(/outside the task folder/);

    const inside = makeTask(tmp(), "linked-in", { "instruction.md": null, "docs/task.md": "Do it.\n" });
    symlinkSync("docs/task.md", join(inside, "instruction.md"));
    expect((await loadTask(inside)).instruction).toBe("Do it.\n");
  });

  it("rejects two tasks with one name", async () => {
    const root = tmp();
    const a = makeTask(join(root, "one"), "same");
    const b = makeTask(join(root, "two"), "other", { "task.toml": '[task]\nname = "same"\n' });
    const e = await rejection(loadTasks([a, b]));
    expect(e.message).toBe(`two tasks are named "same": ${a} and ${b}`);
  });

  it("reports the first broken task in path order", async () => {
    const ds = join(tmp(), "ds");
    for (const n of ["a", "b", "c", "d", "e", "f"]) makeTask(ds, n);
    rmSync(join(ds, "c/tests/test.sh"));
    rmSync(join(ds, "e/instruction.md"));
    for (let i = 0; i < 3; i++) {
      expect((await rejection(loadTasks([ds]))).message).toBe(
        `${join(ds, "c")}: missing ${join(ds, "c/tests/test.sh")}`,
      );
    }
  });

  it("rejects paths that are neither tasks nor datasets", async () => {
    const root = tmp();
    expect((await rejection(loadTasks([join(root, "nope")]))).message).toMatch(/no such task or dataset/);
    mkdirSync(join(root, "empty"));
    expect((await rejection(loadTasks([join(root, "empty")]))).message).toMatch(/neither a task folder/);
  });
});

describe("taskChecksum", () => {
  it("is the same for the same content anywhere, and changes with bytes, names and links", async () => {
    const a = makeTask(tmp(), "t");
    const b = join(tmp(), "elsewhere");
    cpSync(a, b, { recursive: true });
    const base = await taskChecksum(a);
    expect(await taskChecksum(b)).toBe(base);

    // Modes, timestamps and machine droppings do not count.
    chmodSync(join(b, "tests/test.sh"), 0o755);
    writeFileSync(join(b, ".DS_Store"), "junk");
    mkdirSync(join(b, "tests/__pycache__"));
    writeFileSync(join(b, "tests/__pycache__/x.pyc"), "junk");
    expect(await taskChecksum(b)).toBe(base);

    writeFileSync(join(b, "environment/data.txt"), "1,2,4\n");
    const changedBytes = await taskChecksum(b);
    expect(changedBytes).not.toBe(base);

    writeFileSync(join(b, "environment/data.txt"), "1,2,3\n");
    expect(await taskChecksum(b)).toBe(base);
    cpSync(join(b, "environment/data.txt"), join(b, "environment/data2.txt"));
    rmSync(join(b, "environment/data.txt"));
    expect(await taskChecksum(b)).not.toBe(base);
  });

  it("hashes a symlink by its target, without following it", async () => {
    const outside = join(tmp(), "outside.txt");
    writeFileSync(outside, "v1");
    const dir = makeTask(tmp(), "links");
    symlinkSync(outside, join(dir, "environment/link"));
    const one = await taskChecksum(dir);
    writeFileSync(outside, "v2, longer");
    expect(await taskChecksum(dir)).toBe(one);
    rmSync(join(dir, "environment/link"));
    symlinkSync("data.txt", join(dir, "environment/link"));
    expect(await taskChecksum(dir)).not.toBe(one);
  });

  it("streams large files with the same result wherever the task sits", async () => {
    const a = tmp();
    const big = Buffer.alloc(5 * 1024 * 1024 + 3, 1);
    writeFileSync(join(a, "big.bin"), big);
    writeFileSync(join(a, "small.txt"), "x");
    const b = tmp();
    cpSync(a, b, { recursive: true });
    const sum = await taskChecksum(a);
    expect(await taskChecksum(b)).toBe(sum);
    big[2 * 1024 * 1024] = 2;
    writeFileSync(join(b, "big.bin"), big);
    expect(await taskChecksum(b)).not.toBe(sum);
  });

  it("does not confuse a file's bytes with the next file's name", async () => {
    const x = tmp();
    writeFileSync(join(x, "a"), "bc");
    const y = tmp();
    writeFileSync(join(y, "a"), "b");
    writeFileSync(join(y, "c"), "");
    expect(await taskChecksum(x)).not.toBe(await taskChecksum(y));
  });
});

describe("checkHostTools", () => {
  it("passes when every tool is on PATH and names the missing ones otherwise", async () => {
    const bin = tmp();
    writeFileSync(join(bin, "have-it"), "#!/bin/sh\n");
    chmodSync(join(bin, "have-it"), 0o755);
    writeFileSync(join(bin, "not-exec"), "");
    expect(findOnPath("have-it", bin)).toBe(join(bin, "have-it"));
    expect(findOnPath("not-exec", bin)).toBeNull();

    const ok = await loadTask(
      makeTask(tmp(), "ok", { "task.toml": '[requires]\nhost_tools = ["have-it"]\n' }),
    );
    expect(() => checkHostTools(ok, bin)).not.toThrow();
    const needs = await loadTask(
      makeTask(tmp(), "needs", {
        "task.toml": '[requires]\nhost_tools = ["have-it", "nope-a", "not-exec"]\n',
      }),
    );
    const run = () => checkHostTools(needs, bin);
    expect(run).toThrow(UserError);
    expect(run).toThrow(/task needs needs host tools not found on PATH: nope-a, not-exec/);
  });
});
