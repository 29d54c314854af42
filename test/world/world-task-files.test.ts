import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { createWorld } from "../../src/world/build/world.js";
import { loadWorldTask, parseWorldTask, worldTaskFiles } from "../../src/world/task/load.js";
import { runCli } from "../support/cli-process.js";
import { taskFile } from "./task-sample.js";

// What a task folder or file can hold that is not a task: a dangling link, bytes that are not
// UTF-8, two files of one id, a solo_role no member plays. Each is one line naming the file.

const dir = mkdtempSync(join(tmpdir(), "longhaul-world-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const world = createWorld();

function folder(name: string): string {
  const d = join(dir, name);
  mkdirSync(d);
  return d;
}

describe("world task folders and files", () => {
  it("a dangling symlink in a task folder is a user error naming it, as a missing path is", async () => {
    const d = folder("dangling");
    symlinkSync(join(dir, "nothing-here"), join(d, "x.yaml"));
    copyFileSync(taskFile("warden-hunt"), join(d, "warden-hunt.yaml"));
    expect(() => worldTaskFiles([d])).toThrow(UserError);
    expect(() => worldTaskFiles([d])).toThrow(`${join(d, "x.yaml")}: no such file or folder`);
    for (const cmd of ["check", "list"]) {
      const r = await runCli(["world", cmd, d]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`longhaul: ${join(d, "x.yaml")}: no such file or folder\n`);
    }
  });

  it("bytes that are not UTF-8 are an error naming the file and line (exit 2), never U+FFFD", async () => {
    const file = join(dir, "latin1.yaml");
    const text = readFileSync(taskFile("warden-hunt"), "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.trimStart().startsWith("goal:"));
    const before = Buffer.from(`${lines.slice(0, at).join("\n")}\n`);
    // "café" in Latin-1: a lone 0xE9 byte.
    const bad = Buffer.concat([
      before,
      Buffer.from(`${lines[at]} caf`),
      Buffer.from([0xe9]),
      Buffer.from(`\n${lines.slice(at + 1).join("\n")}`),
    ]);
    writeFileSync(file, bad);
    expect(() => loadWorldTask(file, world)).toThrow(`${file}: line ${at + 1}: invalid UTF-8`);
    const r = await runCli(["world", "list", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`longhaul: ${file}: line ${at + 1}: invalid UTF-8\n`);
  });

  it("world list refuses two files of one id, as world check and run do", async () => {
    const d = folder("dup");
    copyFileSync(taskFile("warden-hunt"), join(d, "a.yaml"));
    copyFileSync(taskFile("warden-hunt"), join(d, "b.yaml"));
    const r = await runCli(["world", "list", d]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `longhaul: ${join(d, "b.yaml")}: id: "warden-hunt" is also the id of ${join(d, "a.yaml")}\n`,
    );
  });
});

describe("params.solo_role", () => {
  const text = readFileSync(taskFile("warden-hunt"), "utf8");
  const withParams = (params: string): { text: string; line: number } => {
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("max_rounds:"));
    lines.splice(at + 1, 0, `params: ${params}`);
    return { text: lines.join("\n"), line: at + 2 };
  };
  const errorOf = (t: string): string => {
    try {
      parseWorldTask(t, "t.yaml", world);
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return (e as Error).message;
    }
    throw new Error("expected the task to be rejected");
  };

  it("must be the role of a team member, with or without merged", () => {
    for (const p of ["{ solo_role: dragon }", "{ merged: true, solo_role: dragon }"]) {
      const { text: t, line } = withParams(p);
      expect(errorOf(t)).toBe(
        `t.yaml: params.solo_role (line ${line}): no team member has role "dragon" (team roles: warrior, cook)`,
      );
    }
  });

  it("needs merged: true, which it cuts down", () => {
    const { text: t, line } = withParams("{ solo_role: cook }");
    expect(errorOf(t)).toBe(
      `t.yaml: params.solo_role (line ${line}): needs merged: true (it chooses which members fill the merged agent)`,
    );
    expect(
      parseWorldTask(withParams("{ merged: true, solo_role: cook }").text, "t.yaml", world).params,
    ).toEqual({
      merged: true,
      solo_role: "cook",
    });
  });
});
