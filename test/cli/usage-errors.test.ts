import { cpSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli as cli } from "../support/cli-process.js";

describe("bad input to longhaul run", () => {
  it("rejects an unknown agent or a model agent without a model before any job exists", async () => {
    const jobs = tempDir("cli");
    const task = join(FIXTURES, "hello");
    const unknown = await cli(["run", task, "--agent", "nosuch", "--jobs-dir", jobs]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      'longhaul: unknown agent "nosuch"; known agents: claude-code, codex, follow, mutant, nop, oracle, partial, qwen-code, shell, terminus, tools',
    );
    const noModel = await cli(["run", task, "--agent", "terminus", "--jobs-dir", jobs]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/agent terminus needs a model/);
    expect(readdirSync(jobs).filter((f) => !f.startsWith("longhaul.db"))).toEqual([]);
  });

  it("names the file, line and field of a bad task.toml", async () => {
    const dir = join(tempDir("cli"), "bad-task");
    cpSync(join(FIXTURES, "hello"), dir, { recursive: true });
    writeFileSync(
      join(dir, "task.toml"),
      'version = "1.0"\n[metadata]\ncategory = "x"\n[agent]\ntimeout_sec = 30\n[verifier]\ntimeout_sec = "ten"\n',
    );
    const r = await cli(["run", dir, "--agent", "oracle", "--jobs-dir", tempDir("cli")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'bad-task/task.toml:7: [verifier] timeout_sec must be a positive number, got "ten"',
    );
  });
});

describe("usage errors of any command", () => {
  it("exit 2 with commander's one line, at every level of subcommand", async () => {
    const cases: Array<[string[], string]> = [
      [["scale", "tree"], "error: missing required argument 'out'"],
      [["run", "--agent"], "error: option '-a, --agent <name>' argument missing"],
      [["compare", "a", "b", "--no-such-flag"], "error: unknown option '--no-such-flag'"],
      [["worker"], "error: required option '--redis <url>' not specified"],
      [["nosuchcmd"], "error: unknown command 'nosuchcmd'"],
    ];
    for (const [args, line] of cases) {
      const r = await cli(args);
      expect([r.code, r.stderr.trim()], args.join(" ")).toEqual([2, line]);
    }
    expect((await cli(["scale", "verify", "--help"])).code).toBe(0);
  });

  it("reads --config after any command, scale's subcommands included", async () => {
    const missing = join(tempDir("cli"), "none.json");
    for (const args of [
      ["scale", "tree", "x", "--config", missing],
      ["scale", "verify", "x", "--no-trials", "--config", missing],
      ["scale", "--config", missing, "--depth", "1"],
      ["--config", missing, "scale", "transforms"],
      ["report", "--config", missing],
    ]) {
      const r = await cli(args);
      expect([r.code, r.stderr.trim()], args.join(" ")).toEqual([
        2,
        `longhaul: --config ${missing}: no such file`,
      ]);
    }
  });
});
