import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { kitCheck } from "../../src/runner/check-kit.js";
import { findSharedCode } from "../../src/runner/check-shared-code.js";
import { bundledTasksDir } from "../../src/runner/package-root.js";
import { loadTask } from "../../src/task/index.js";
import { scaffoldTask } from "../../src/task/scaffold/scaffold.js";
import { kitStatus, kitVersionOf, readKit, updateKit } from "../../src/task/verifier-kit.js";
import { tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";
import { py } from "./py.js";

const kit = readKit();
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "tasks");

function taskDirs(root: string): string[] {
  return readdirSync(root)
    .map((n) => join(root, n))
    .filter((d) => existsSync(join(d, "tests", "lh.py")));
}

/** A scaffolded task (it carries the current kit) whose tests/lh.py is then replaced by `text`. */
function taskWithKit(text: string | null): string {
  const dir = scaffoldTask(join(tempDir("kit"), "kit-task"));
  if (text !== null) writeFileSync(join(dir, "tests", "lh.py"), text);
  return dir;
}

const stale = kit.text.replace(/version \d+/, "version 0");
/** How every copy from before the kit had versions began. */
const OLD_COPY = `"""Shared verifier code: per-subtask error isolation, continuous scoring, and the two reward files.\n"""\n`;
const OWN = "# helpers of my own\ndef f():\n    return 1\n";
const edited = `${kit.text}# a local change\n`;

describe("verifier kit copies", () => {
  it("names its version on the first line and in KIT_VERSION", () => {
    expect(kit.text.split("\n")[0]).toMatch(/^# longhaul verifier kit lh\.py version \d+ /);
    expect(py<number>("print(lh.KIT_VERSION)")).toBe(kit.version);
  });

  it("is carried byte for byte by every bundled task and fixture that uses it", () => {
    const bundled = taskDirs(bundledTasksDir());
    // Every bundled task uses the kit (the thirteen original ones at least).
    expect(bundled.length).toBeGreaterThanOrEqual(13);
    const fixtures = taskDirs(FIXTURES);
    expect(fixtures.map((d) => d.split("/").pop())).toEqual(
      expect.arrayContaining(["adv-vault", "adv-vault-roomy", "sealed"]),
    );
    for (const d of [...bundled, ...fixtures]) {
      expect([d, readFileSync(join(d, "tests", "lh.py"), "utf8") === kit.text]).toEqual([d, true]);
    }
  });

  it("tells current, stale, edited, newer and absent copies apart", () => {
    const state = (text: string | null): string => {
      const dir = taskWithKit(text);
      return kitStatus(join(dir, "tests")).state;
    };
    expect(state(kit.text)).toBe("current");
    expect(state(stale)).toBe("stale");
    expect(state(OLD_COPY)).toBe("stale");
    // A file of the task's own that happens to be named lh.py is no kit copy.
    expect(state(OWN)).toBe("foreign");
    expect(state(edited)).toBe("edited");
    expect(state(kit.text.replace(/version \d+/, "version 999"))).toBe("newer");
    expect(kitStatus(tempDir("kit-none")).state).toBe("absent");
    expect(kitVersionOf(stale)).toBe(0);
  });

  it("makes task check name a stale or an edited copy", async () => {
    for (const [text, word] of [
      [stale, "stale"],
      [edited, "edited"],
    ] as const) {
      const dir = taskWithKit(text);
      const c = kitCheck(await loadTask(dir));
      expect(c.ok).toBe(false);
      expect(c.detail).toContain(join(dir, "tests", "lh.py"));
      expect(c.detail).toContain(`${word} kit copy`);
    }
    expect(kitCheck(await loadTask(taskWithKit(null))).ok).toBe(true);
  });

  it("kit-update rewrites a stale copy, refuses an edited one without force", () => {
    const tests = join(taskWithKit(stale), "tests");
    expect(updateKit(tests).written).toBe(true);
    expect(readFileSync(join(tests, "lh.py"), "utf8")).toBe(kit.text);
    expect(updateKit(tests).written).toBe(false);
    writeFileSync(join(tests, "lh.py"), edited);
    expect(() => updateKit(tests)).toThrow(UserError);
    expect(readFileSync(join(tests, "lh.py"), "utf8")).toBe(edited);
    expect(updateKit(tests, true).written).toBe(true);
    expect(readFileSync(join(tests, "lh.py"), "utf8")).toBe(kit.text);
  });

  it("longhaul task kit-update does the same from the command line", async () => {
    const a = taskWithKit(stale);
    const b = taskWithKit(edited);
    const r = await runCli(["task", "kit-update", a, b]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`updated ${join(a, "tests", "lh.py")} to kit version ${kit.version}`);
    expect(r.stderr).toMatch(/refused: .*edited kit copy/);
    expect(readFileSync(join(b, "tests", "lh.py"), "utf8")).toBe(edited);
    const forced = await runCli(["task", "kit-update", "--force", b]);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(b, "tests", "lh.py"), "utf8")).toBe(kit.text);
  });

  it("leaves a task's own lh.py alone: task check passes it, kit-update refuses it without --force", async () => {
    const dir = taskWithKit(OWN);
    const tests = join(dir, "tests");
    expect(kitCheck(await loadTask(dir))).toEqual({
      name: "tests/lh.py is the current verifier kit",
      ok: true,
      detail: `${join(tests, "lh.py")} is not the verifier kit (no kit version line): the task's own file`,
    });
    expect(() => updateKit(tests)).toThrow(/the task's own file; refusing to overwrite it without --force/);
    expect(readFileSync(join(tests, "lh.py"), "utf8")).toBe(OWN);
  });

  it("names a folder where tests/lh.py or tests/ belongs, in task check and kit-update (exit 2)", async () => {
    const dir = taskWithKit(null);
    rmSync(join(dir, "tests", "lh.py"));
    mkdirSync(join(dir, "tests", "lh.py"));
    const c = kitCheck(await loadTask(dir));
    expect(c).toMatchObject({
      ok: false,
      detail: `${join(dir, "tests", "lh.py")}: is a folder, where a file is expected`,
    });
    const other = taskWithKit(null);
    rmSync(join(other, "tests"), { recursive: true });
    writeFileSync(join(other, "tests"), "");
    const r = await runCli(["task", "kit-update", other]);
    expect([r.code, r.stderr.trim()]).toEqual([
      2,
      `longhaul: ${other}: no tests/ folder; is it a task folder?`,
    ]);
  });

  it("is not compared with solutions by the shared-code check", () => {
    // The kit's CSV reader copied into solution/ would be a shared block if the kit were compared.
    const dir = taskWithKit(null);
    writeFileSync(join(dir, "solution", "lh_copy.py"), kit.text.split("\n").slice(1).join("\n"));
    expect(findSharedCode(join(dir, "tests"), join(dir, "solution"), dir)).toEqual([]);
  });
});
