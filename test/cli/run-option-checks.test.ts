import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, tempDir } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env });

/** What a jobs dir holds besides the index: job folders. */
function jobFolders(jobsDir: string): string[] {
  return readdirSync(jobsDir).filter((f) => !f.startsWith("longhaul.db"));
}

describe("run checks every option before a job folder exists", () => {
  it("a model without a provider prefix, or of an unknown provider: exit 2, one line, no job", async () => {
    const jobs = tempDir("cli-options");
    const task = join(FIXTURES, "hello");
    const [bare, unknown] = await Promise.all([
      cli(["run", task, "--agent", "terminus", "--model", "gpt-4o", "--jobs-dir", jobs]),
      cli(["run", task, "--agent", "oracle", "--model", "nosuch:m1", "--jobs-dir", jobs]),
    ]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toBe(
      'longhaul: model "gpt-4o": expected provider:model, e.g. openai:gpt-4.1 or openai-compatible:qwen3-coder\n',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^longhaul: unknown model provider "nosuch"; known: .*openai.*\n$/);
    expect(jobFolders(jobs)).toEqual([]);
  });

  it("an LLM agent's model without its API key or base URL: exit 2, one line, no job", async () => {
    const jobs = tempDir("cli-options");
    const task = join(FIXTURES, "hello");
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (/API_KEY|BASE_URL/.test(name)) delete env[name];
    const [noKey, noUrl] = await Promise.all([
      cli(["run", task, "--agent", "terminus", "--model", "openai:gpt-4.1", "--jobs-dir", jobs], env),
      cli(["run", task, "--agent", "tools", "--model", "openai-compatible:qwen3", "--jobs-dir", jobs], env),
    ]);
    expect(noKey).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^longhaul: provider openai: no API key; set OPENAI_API_KEY[^\n]*\n$/),
    });
    expect(noUrl).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^longhaul: provider openai-compatible: no base URL[^\n]*\n$/),
    });
    expect(jobFolders(jobs)).toEqual([]);
  });

  it("an unknown sandbox or a bad --rate-limit: exit 2, one line, nothing written at all", async () => {
    const jobs = join(tempDir("cli-options"), "jobs");
    const task = join(FIXTURES, "hello");
    const [sandbox, rate] = await Promise.all([
      cli(["run", task, "--agent", "nop", "--sandbox", "nope", "--jobs-dir", jobs]),
      cli(["run", task, "--agent", "nop", "--rate-limit", "x", "--jobs-dir", jobs]),
    ]);
    expect(sandbox).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^longhaul: unknown sandbox provider "nope"[^\n]*\n$/),
    });
    expect(rate).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^longhaul: --rate-limit [^\n]*\n$/),
    });
    expect(existsSync(jobs)).toBe(false);
  });

  it("a bad count names its option by both names when -n is short for it (--concurrency)", async () => {
    const jobs = join(tempDir("cli-options"), "jobs");
    const task = join(FIXTURES, "hello");
    const [long, short, attempts] = await Promise.all([
      cli(["run", task, "--agent", "nop", "--concurrency", "x", "--jobs-dir", jobs]),
      cli(["run", task, "--agent", "nop", "-n", "0", "--jobs-dir", jobs]),
      cli(["run", task, "--agent", "nop", "-k", "1.5", "--jobs-dir", jobs]),
    ]);
    expect(long).toMatchObject({
      code: 2,
      stderr: 'longhaul: -n/--concurrency must be a positive integer, got "x"\n',
    });
    expect(short.stderr).toBe('longhaul: -n/--concurrency must be a positive integer, got "0"\n');
    expect(attempts.stderr).toBe('longhaul: --attempts must be a positive integer, got "1.5"\n');
    expect(existsSync(jobs)).toBe(false);
  });
});
