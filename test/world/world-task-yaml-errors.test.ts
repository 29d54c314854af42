import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { createWorld } from "../../src/world/build/world.js";
import { parseWorldTask } from "../../src/world/task/load.js";
import { runCli } from "../support/cli-process.js";
import { taskFile } from "./task-sample.js";

// A world task file the YAML parser refuses at any stage is the file's fault (exit 2 naming
// it), and an unknown key is reported on its own line, not where its block starts.

const dir = mkdtempSync(join(tmpdir(), "longhaul-world-yaml-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const world = createWorld();

/** Nested anchors and aliases: parsing is cheap, resolving them would be 9^9 nodes. */
function aliasBomb(): string {
  const lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
  for (let i = 1; i < 9; i++) {
    const name = String.fromCharCode(97 + i);
    const prev = String.fromCharCode(96 + i);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
}

function errorOf(text: string, file = "t.yaml"): string {
  try {
    parseWorldTask(text, file, world);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error("expected the task to be rejected");
}

/** The bundled bronze-arrows task with `extra` inserted after the line starting `after`. */
function withLine(after: string, extra: string): { text: string; line: number } {
  const lines = readFileSync(taskFile("bronze-arrows"), "utf8").split("\n");
  const at = lines.findIndex((l) => l.startsWith(after));
  expect(at).toBeGreaterThanOrEqual(0);
  lines.splice(at + 1, 0, extra);
  return { text: lines.join("\n"), line: at + 2 };
}

describe("world task YAML errors", () => {
  it("an alias bomb is a UserError naming the file", () => {
    expect(errorOf(aliasBomb(), "bomb.yaml")).toMatch(/^bomb\.yaml: invalid YAML: Excessive alias count/);
  });

  it("`world list` and `run` exit 2 on it with one line naming the file", async () => {
    const file = join(dir, "bomb.yaml");
    writeFileSync(file, aliasBomb());
    const list = await runCli(["world", "list", file]);
    expect(list.code).toBe(2);
    expect(list.stderr).toMatch(
      new RegExp(`^longhaul: ${file}: invalid YAML: Excessive alias count[^\\n]*\\n$`),
    );
    const run = await runCli(["run", file, "--agent", "nop", "--jobs-dir", join(dir, "jobs")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: invalid YAML: Excessive alias count`);
    expect(run.stderr).not.toContain("internal error");
  });

  it("an unknown top-level key is reported on its own line", () => {
    const { text, line } = withLine("max_rounds:", "bogus: 1");
    expect(errorOf(text)).toBe(`t.yaml: (top) (line ${line}): Unrecognized key: "bogus"`);
  });

  it("an unknown key of a team member is reported on its own line", () => {
    const { text, line } = withLine("    goal:", "    colour: red");
    expect(errorOf(text)).toBe(`t.yaml: team[0] (line ${line}): Unrecognized key: "colour"`);
  });

  it("even when its value is a block starting on the next line", () => {
    const { text, line } = withLine("max_rounds:", "bogus:\n  deep: 1");
    expect(errorOf(text)).toBe(`t.yaml: (top) (line ${line}): Unrecognized key: "bogus"`);
  });
});
