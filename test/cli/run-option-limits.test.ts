import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nonNegativeInt, positiveInt, RUN_LIMITS } from "../../src/cli/options.js";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli as cli, ROOT } from "../support/cli-process.js";

describe("integer option parsers", () => {
  it("refuse a whole number past Number.MAX_SAFE_INTEGER, which a job config could not hold", () => {
    expect(() => nonNegativeInt("--seed")("1e30")).toThrow(
      '--seed must be at most 9007199254740991, got "1e30"',
    );
    expect(() => nonNegativeInt("--seed")("9007199254740992")).toThrow("at most 9007199254740991");
    expect(() => positiveInt("--max-tokens")("1e300")).toThrow("at most 9007199254740991");
    expect(nonNegativeInt("--seed")("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("refuse an empty value rather than reading it as 0", () => {
    expect(() => nonNegativeInt("--seed")("")).toThrow('--seed must be a whole number ≥ 0, got ""');
    expect(() => positiveInt("-n")(" ")).toThrow('-n must be a positive integer, got " "');
  });

  it("keep to a maximum when given one", () => {
    expect(positiveInt("--attempts", 10)("10")).toBe(10);
    expect(() => positiveInt("--attempts", 10)("11")).toThrow('--attempts must be at most 10, got "11"');
    expect(() => nonNegativeInt("--retries", 3)("4")).toThrow('--retries must be at most 3, got "4"');
  });
});

describe("run's counts are bounded (docs/cli.md)", () => {
  const task = join(FIXTURES, "hello");

  it.each([
    [["--seed", "1e30"], '--seed must be at most 9007199254740991, got "1e30"'],
    [["--attempts", "99999999999"], `--attempts must be at most ${RUN_LIMITS.attempts}, got "99999999999"`],
    [["--attempts", String(RUN_LIMITS.attempts + 1)], `--attempts must be at most ${RUN_LIMITS.attempts}`],
    [["-n", "99999999999"], `-n/--concurrency must be at most ${RUN_LIMITS.concurrency}, got "99999999999"`],
    [["--retries", "1000"], `--retries must be at most ${RUN_LIMITS.retries}, got "1000"`],
    [["--max-tokens", "1e300"], "--max-tokens must be at most 9007199254740991"],
    [["--priority", "1e20", "--queue", "redis://127.0.0.1:1"], "--priority must be at most 2097151"],
  ])("%j: exit 2, one line, no jobs dir", async (args, message) => {
    const jobs = join(tempDir("run-limits"), "jobs");
    const r = await cli(["run", task, "--agent", "nop", "--jobs-dir", jobs, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^longhaul: [^\n]*\n$/);
    expect(r.stderr).toContain(message);
    expect(existsSync(jobs)).toBe(false);
  });

  it("the documented limits are those the options keep", () => {
    const docs = readFileSync(join(ROOT, "docs", "cli.md"), "utf8");
    const row = (flag: string) => docs.split("\n").find((l) => l.startsWith(`| ${flag}`)) ?? "";
    expect(row("`--attempts`")).toContain(`at most ${RUN_LIMITS.attempts}`);
    expect(row("`-n`")).toContain(`at most ${RUN_LIMITS.concurrency}`);
    expect(row("`--retries`")).toContain(`at most ${RUN_LIMITS.retries}`);
  });
});
