import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import {
  checkRedisUrl,
  MAX_PRIORITY,
  parseRateLimit,
  RATE_LIMIT_MAX_STARTS,
  redactUrl,
  runDistributed,
  startWorker,
} from "../../src/distributed/index.js";
import { JobStore } from "../../src/store/index.js";
import { fixtureTask, jobConfig } from "../runner/helpers.js";
import { runCli } from "../support/cli-process.js";

const tmp = mkdtempSync(join(tmpdir(), "longhaul-test-limits-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Nothing listens on port 1: every check here must fail before Redis is asked anything.
const NO_REDIS = "redis://127.0.0.1:1";

const worker = (more: Partial<Parameters<typeof startWorker>[0]>) =>
  startWorker({
    redisUrl: NO_REDIS,
    concurrency: 1,
    sandbox: "bwrap",
    cacheDir: join(tmp, "cache"),
    lockMs: 30_000,
    stalledMs: 30_000,
    log: () => undefined,
    ...more,
  });

describe("queue option limits", () => {
  it("parseRateLimit refuses counts past 2^53 and windows past a day", () => {
    expect(parseRateLimit("m=30/60s")).toEqual({ model: "m", limit: { max: 30, window_ms: 60_000 } });
    expect(parseRateLimit(`m=${RATE_LIMIT_MAX_STARTS}/24m`)?.limit.max).toBe(RATE_LIMIT_MAX_STARTS);
    expect(parseRateLimit("m=99999999999999999999999/1s")).toBeNull();
    expect(parseRateLimit(`m=${RATE_LIMIT_MAX_STARTS + 1}/1s`)).toBeNull();
    expect(parseRateLimit("m=1/99999999999999999999m")).toBeNull();
    expect(parseRateLimit("m=1/1441m")).toBeNull();
    expect(parseRateLimit("m=0/1s")).toBeNull();
  });

  it("checkRedisUrl refuses a bad port, host or database with one line that hides the password", () => {
    for (const url of [
      "redis://127.0.0.1:99999",
      "redis://127.0.0.1:abc",
      "redis://:s3cret@127.0.0.1:abc",
      "redis://127.0.0.1:6380/x",
      "http://127.0.0.1:6380",
    ]) {
      expect(() => checkRedisUrl(url), url).toThrow(UserError);
      try {
        checkRedisUrl(url);
      } catch (e) {
        expect((e as Error).message).not.toContain("s3cret");
        expect((e as Error).message).not.toContain("\n");
      }
    }
    expect(() => checkRedisUrl("redis://:pw@queue-host:6380/3")).not.toThrow();
    expect(redactUrl("redis://user:s3cret@h:1/0")).toBe("redis://user:***@h:1/0");
  });

  it("a worker refuses a lease or stalled check past the timer limit or an hour, and a cache that is a file", async () => {
    await expect(worker({ stalledMs: 99_999_999_999 })).rejects.toThrow(/--stalled-ms .*queue-wide/);
    await expect(worker({ stalledMs: 3_600_001 })).rejects.toBeInstanceOf(UserError);
    await expect(worker({ lockMs: 99_999_999_999 })).rejects.toThrow(/--lock-ms must be .* 2147483647/);
    const file = join(tmp, "afile");
    writeFileSync(file, "x");
    await expect(worker({ cacheDir: file })).rejects.toThrow(
      `--cache ${file}: cannot hold the worker's cache`,
    );
    await expect(worker({ cacheDir: join(file, "below") })).rejects.toBeInstanceOf(UserError);
  });

  it("a coordinator refuses a priority BullMQ cannot hold before the job exists", async () => {
    const task = await fixtureTask("seeded");
    const store = await JobStore.open(join(tmp, "jobs"));
    try {
      const run = runDistributed({
        store,
        config: jobConfig([task], { job_id: "prio" }),
        tasks: [task],
        redisUrl: NO_REDIS,
        resume: false,
        priority: MAX_PRIORITY + 1,
      });
      await expect(run).rejects.toThrow(/--priority must be from 1 to 2097151/);
      expect(store.hasJob("prio")).toBe(false);
    } finally {
      await store.close();
    }
  });

  it("the CLI fails these with exit 2 and one line, before any job or connection", async () => {
    const runArgs = [
      "run",
      "test/fixtures/tasks/seeded",
      "-a",
      "oracle",
      "--jobs-dir",
      join(tmp, "cli-jobs"),
    ];
    const cases = [
      [...runArgs, "--queue", NO_REDIS, "--priority", "3000000"],
      [...runArgs, "--queue", NO_REDIS, "--rate-limit", "m=99999999999999999999999/1s"],
      ["worker", "--redis", NO_REDIS, "--stalled-ms", "99999999999"],
      ["worker", "--redis", NO_REDIS, "--lock-ms", "99999999999"],
      // Redis holds at most 512 MiB in one value: a larger cap on a result pack could never be met.
      ["worker", "--redis", NO_REDIS, "--max-result-mib", "513"],
      [...runArgs, "--queue", NO_REDIS, "--max-result-mib", "0"],
      [...runArgs, "--max-result-mib", "64"],
      ["worker", "--redis", NO_REDIS, "--cache", join(tmp, "afile")],
      ["queue", "status", "redis://127.0.0.1:99999"],
      ["queue", "status", "redis://127.0.0.1:abc"],
    ];
    writeFileSync(join(tmp, "afile"), "x");
    // Independent processes that each stop at their options: they run side by side.
    const results = await Promise.all(cases.map(async (args) => ({ args, r: await runCli(args) })));
    for (const { args, r } of results) {
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    }
  }, 60_000);

  it("run --queue warns that --sandbox and -n are the workers' to choose", async () => {
    const r = await runCli([
      "run",
      "test/fixtures/tasks/seeded",
      "-a",
      "oracle",
      "--jobs-dir",
      join(tmp, "cli-jobs"),
      "--queue",
      "redis://127.0.0.1:99999",
      "--sandbox",
      "docker",
      "-n",
      "8",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "warning: --sandbox is ignored with --queue: each worker's own --sandbox decides",
    );
    expect(r.stderr).toContain("warning: -n/--concurrency is ignored with --queue");
  }, 30_000);
});
