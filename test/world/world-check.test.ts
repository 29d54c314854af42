import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { worldCommandFor } from "../../src/cli/commands/world.js";
import { runCli } from "../support/cli-process.js";
import { SAMPLE_TASKS } from "./task-sample.js";

async function cli(args: string[]): Promise<{ out: string; code: number | undefined }> {
  const program = new Command();
  program.exitOverride();
  (await worldCommandFor())(program);
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  process.exitCode = undefined;
  try {
    await program.parseAsync(["node", "longhaul", "world", "check", ...args]);
  } finally {
    vi.restoreAllMocks();
  }
  const code = process.exitCode === undefined ? undefined : Number(process.exitCode);
  process.exitCode = undefined;
  return { out, code };
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe("longhaul world check", () => {
  it("passes the sampled bundled tasks with one line each", async () => {
    // The sample (task-sample.ts), not the whole folder: `world check world-tasks/` is the full run.
    const { out, code } = await cli(SAMPLE_TASKS.map((id) => `world-tasks/${id}.yaml`));
    const lines = out.trim().split("\n");
    expect(lines).toHaveLength(SAMPLE_TASKS.length);
    for (const l of lines)
      expect(l).toMatch(
        /^ok {3}\S+ \(world-tasks\/.*\.yaml\): \w+, reference succeeds in \d+ rounds, psr 1\.00; scripted succeeds in \d+ rounds, psr \d\.\d\d; waiting: psr 0\.\d\d; each role alone fails \(psr (\w+ \d\.\d\d(, )?)+\)$/,
      );
    expect(code).toBeUndefined();
  });

  it("exits 1 naming each failing task: round-0 trap, failing reference, waiting succeeds, one role suffices", async () => {
    const dir = mkdtempSync(join(tmpdir(), "world-check-"));
    const base = readFileSync("world-tasks/bronze-arrows.yaml", "utf8");
    copyFileSync("world-tasks/warden-hunt.yaml", join(dir, "a-good.yaml"));
    writeFileSync(
      join(dir, "c-trap.yaml"),
      base
        .replace("id: bronze-arrows", "id: c-trap")
        .replace("success:\n", "success:\n  any:\n  - holds: { item: feather, qty: 1 }\n  - ")
        .replace(/\n {4}- (holds|crafted)/g, "\n      - $1"),
    );
    writeFileSync(
      join(dir, "d-short.yaml"),
      base
        .replace("id: bronze-arrows", "id: d-short")
        // The smith never hands over the arrowheads, so the fletcher cannot fletch.
        .replace(/ {2}- - \{ agent: smith, call: \{ tool: transfer_items[^\n]*\n[^\n]*\n/, ""),
    );
    writeFileSync(
      join(dir, "e-idle.yaml"),
      base
        .replace("id: bronze-arrows", "id: e-idle")
        .replace(/success:\n(.*\n)*?checkpoints:/, "success: { not: { within_rounds: 3 } }\ncheckpoints:"),
    );
    // Bronze arrows without the reference calls: the scripted team is what shows it solvable.
    writeFileSync(
      join(dir, "f-no-reference.yaml"),
      base.replace("id: bronze-arrows", "id: f-no-reference").replace(/\nreference:\n[\s\S]*$/, "\n"),
    );
    // A log is all it takes: the lumberjack could do it alone.
    writeFileSync(
      join(dir, "g-solo.yaml"),
      base
        .replace("id: bronze-arrows", "id: g-solo")
        .replace(
          /success:\n(.*\n)*?checkpoints:/,
          "success: { gathered: { item: pine_log, qty: 1 } }\ncheckpoints:",
        ),
    );
    const { out, code } = await cli([dir]);
    const lines = out.trim().split("\n");
    expect(code).toBe(1);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^ok {3}warden-hunt/);
    expect(lines[1]).toMatch(/^FAIL c-trap .*: true at round 0: success/);
    expect(lines[2]).toMatch(
      /^FAIL d-short .*: reference FAILS in 13 rounds, psr 0\.\d\d: all\(✗ fletcher holds 0\/15 bronze_arrow/,
    );
    expect(lines[3]).toMatch(
      /^FAIL e-idle .*: reference succeeds in 14 rounds, psr 1\.00; scripted succeeds in \d+ rounds, psr 1\.00; waiting alone succeeds$/,
    );
    expect(lines[4]).toMatch(
      /^ok {3}f-no-reference .*: crafting, scripted succeeds in \d+ rounds, psr 1\.00; waiting: psr 0\.00; each role alone fails/,
    );
    expect(lines[5]).toMatch(
      /^FAIL g-solo .*; lumberjack alone succeeds \(scripted, merged with only its abilities\)$/,
    );
  });

  it("a file that does not load is bad input: exit 2, one line naming the file, line and field, nothing played", async () => {
    const dir = mkdtempSync(join(tmpdir(), "world-check-load-"));
    const base = readFileSync("world-tasks/bronze-arrows.yaml", "utf8");
    copyFileSync("world-tasks/warden-hunt.yaml", join(dir, "a-good.yaml"));
    const schema = join(dir, "b-schema.yaml");
    writeFileSync(
      schema,
      base.replace("id: bronze-arrows", "id: b-schema").replace("max_rounds: 24", "max_rounds: 0"),
    );
    const one = await runCli(["world", "check", dir]);
    expect(one.code, one.stderr).toBe(2);
    expect(one.stderr).toMatch(
      new RegExp(
        `^longhaul: ${schema.replaceAll(".", "\\.")}: max_rounds \\(line 7\\): Too small[^\\n]*\\n$`,
      ),
    );
    // Every file is loaded before any is played: the good one was not checked either.
    expect(one.stdout).toBe("");

    // YAML that does not parse names its line.
    const broken = join(dir, "b-schema.yaml");
    writeFileSync(
      broken,
      `${base.replace("id: bronze-arrows", "id: b-broken").split("\n").slice(0, 5).join("\n")}\nteam: [\n`,
    );
    const two = await runCli(["world", "check", dir]);
    expect(two.code, two.stderr).toBe(2);
    expect(two.stderr).toMatch(
      new RegExp(`^longhaul: ${broken.replaceAll(".", "\\.")}: line \\d+: [^\\n]+\\n$`),
    );

    // Two files of one id, as world list refuses them.
    copyFileSync("world-tasks/warden-hunt.yaml", broken);
    const three = await runCli(["world", "check", dir]);
    expect(three.code, three.stderr).toBe(2);
    expect(three.stderr).toBe(
      `longhaul: ${broken}: id: "warden-hunt" is also the id of ${join(dir, "a-good.yaml")}\n`,
    );
    expect(three.stdout).toBe("");
  });
});
