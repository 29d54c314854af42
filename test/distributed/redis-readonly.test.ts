import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkRedis, connectRedis, startWorker } from "../../src/distributed/index.js";
import { registerSandboxProvider } from "../../src/sandbox/registry.js";
import { runCli, startCli, until } from "../support/cli-process.js";
import { freePort, REDIS_BIN } from "../support/redis-server.js";

// A Redis that answers but refuses writes: a replica (of a primary that is not there), and a
// user whose ACL allows reading only.
let replica: ChildProcess;
let restricted: ChildProcess;
let replicaUrl: string;
let readerUrl: string;
let dir: string;

/** Refused writes the worker's polls must have met before its log is judged (ten a second). */
const REFUSED_WRITES = 10;

async function answering(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = connectRedis(url);
    try {
      await checkRedis(r, url, 200);
      return;
    } catch {
      await new Promise((res) => setTimeout(res, 50));
    } finally {
      r.disconnect();
    }
  }
  throw new Error(`${url} never answered`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "longhaul-test-redis-ro-"));
  const [a, b, nobody] = [await freePort(), await freePort(), await freePort()];
  const common = ["--bind", "127.0.0.1", "--dir", dir, "--save", ""];
  replica = spawn(REDIS_BIN, ["--port", String(a), ...common, "--replicaof", "127.0.0.1", String(nobody)], {
    stdio: "ignore",
  });
  restricted = spawn(
    REDIS_BIN,
    ["--port", String(b), ...common, "--user", "reader", "on", ">reader-pw", "~*", "&*", "+@all", "-@write"],
    { stdio: "ignore" },
  );
  replicaUrl = `redis://127.0.0.1:${a}`;
  readerUrl = `redis://reader:reader-pw@127.0.0.1:${b}`;
  await answering(replicaUrl);
  await answering(readerUrl);
});

afterAll(() => {
  replica?.kill("SIGKILL");
  restricted?.kill("SIGKILL");
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe("a Redis that refuses writes", () => {
  it("run --queue, worker and queue clear exit 2 with one line naming why, not an internal error", async () => {
    const cases = [
      [replicaUrl, /is a read-only replica; give the primary's URL \(READONLY/],
      [readerUrl, /does not let this user write the queue's keys \(NOPERM/],
    ] as const;
    // Each server's commands have their own folders: the six run side by side.
    const commands = (url: string, n: number): string[][] => [
      [
        "run",
        "test/fixtures/tasks/seeded",
        "-a",
        "oracle",
        "--jobs-dir",
        join(dir, `jobs${n}`),
        "--queue",
        url,
      ],
      ["worker", "--redis", url, "--sandbox", "bwrap", "--cache", join(dir, `cache${n}`)],
      ["queue", "clear", url, "--job", "nothing"],
    ];
    const runs = cases.flatMap(([url, why], n) =>
      commands(url, n).map(async (args) => ({ args, url, why, r: await runCli(args) })),
    );
    for (const { args, url, why, r } of await Promise.all(runs)) {
      expect(r.code, `${args[0]} ${url}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toContain("reader-pw");
    }
  }, 60_000);

  it("a worker refuses a read-only Redis before its sandbox check, which is the slow part of its start", async () => {
    let checks = 0;
    registerSandboxProvider("check-counted", () => ({
      name: "check-counted",
      check: async () => {
        checks += 1;
      },
      create: () => Promise.reject(new Error("no sandbox here")),
    }));
    const start = startWorker({
      redisUrl: replicaUrl,
      concurrency: 1,
      sandbox: "check-counted",
      cacheDir: join(dir, "cache-counted"),
      lockMs: 30_000,
      stalledMs: 30_000,
      log: () => undefined,
    });
    await expect(start).rejects.toThrow(/is a read-only replica/);
    expect(checks).toBe(0);
  });

  it("a worker whose Redis turns replica mid-run logs the refusal once, not ten times a second", async () => {
    const port = await freePort();
    const nobody = await freePort();
    const primary = spawn(
      REDIS_BIN,
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--dbfilename", "p.rdb"],
      { stdio: "ignore" },
    );
    const url = `redis://127.0.0.1:${port}`;
    const w = startCli([
      "worker",
      "--redis",
      url,
      "--sandbox",
      "bwrap",
      "--cache",
      join(dir, "cache-turned"),
    ]);
    const admin = new Redis(url, { maxRetriesPerRequest: null });
    try {
      await answering(url);
      await w.waitFor(/at once/, 30_000);
      // A failover's demotion: the server now refuses every write the worker's polls make.
      await admin.call("REPLICAOF", "127.0.0.1", String(nobody));
      const refusals = (): string[] =>
        w
          .stderr()
          .split("\n")
          .filter((l) => /READONLY/.test(l));
      // Rather than a fixed wait: until the server itself has refused the worker's writes many
      // times (it counts them), each a chance for a line that the bound below would catch.
      const refusedWrites = async (): Promise<number> =>
        Number(/errorstat_READONLY:count=(\d+)/.exec(await admin.info("errorstats"))?.[1] ?? 0);
      await until(
        async () => (await refusedWrites()) >= REFUSED_WRITES && refusals().length > 0,
        30_000,
        `${REFUSED_WRITES} writes refused and logged`,
      );
      expect(refusals().length, w.stderr()).toBeGreaterThan(0);
      expect(refusals().length, w.stderr()).toBeLessThanOrEqual(2);
    } finally {
      admin.disconnect();
      await w.kill9();
      primary.kill("SIGKILL");
    }
  }, 60_000);
});
