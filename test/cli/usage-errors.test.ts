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
