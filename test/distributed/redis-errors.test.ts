import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/index.js";
import { checkRedis, connectRedis } from "../../src/distributed/index.js";
import { runCli } from "../support/cli-process.js";
import { freePort, REDIS_BIN } from "../support/redis-server.js";

// A Redis with a password, which the queue's own helpers do not start.
const PASSWORD = "s3cret-pw";
let server: ChildProcess;
let port: number;
let dir: string;

beforeAll(async () => {
  port = await freePort();
  dir = mkdtempSync(join(tmpdir(), "longhaul-test-redis-auth-"));
  server = spawn(
    REDIS_BIN,
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--requirepass", PASSWORD],
    { stdio: "ignore" },
  );
  const ok = `redis://:${PASSWORD}@127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const r = connectRedis(ok);
    try {
      await checkRedis(r, ok, 200);
      return;
    } catch {
      await new Promise((res) => setTimeout(res, 50));
    } finally {
      r.disconnect();
    }
  }
});

afterAll(() => {
  server?.kill("SIGKILL");
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** How connecting to `url` ends: the error it fails with, and how long it took. */
async function failure(url: string): Promise<{ error: unknown; ms: number }> {
  const t0 = Date.now();
  const r = connectRedis(url);
  try {
    await checkRedis(r, url, 8000);
    return { error: null, ms: Date.now() - t0 };
  } catch (e) {
    return { error: e, ms: Date.now() - t0 };
  } finally {
    r.disconnect();
  }
}

describe("Redis connection errors", () => {
  it("a missing or wrong password fails at once with one line that does not show it", async () => {
    for (const url of [`redis://127.0.0.1:${port}`, `redis://:wrong-pw@127.0.0.1:${port}`]) {
      const { error, ms } = await failure(url);
      expect(error, url).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/refused the password/);
      expect((error as Error).message).not.toContain("wrong-pw");
      // Not the 8 s "did not answer": reconnecting cannot fix a password.
      expect(ms).toBeLessThan(3000);
    }
  });

  it("a database index the server does not have is an error, not database 0", async () => {
    const { error } = await failure(`redis://:${PASSWORD}@127.0.0.1:${port}/99`);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/no such database.*DB index is out of range/);
    expect((error as Error).message).not.toContain(PASSWORD);
    expect((await failure(`redis://:${PASSWORD}@127.0.0.1:${port}/3`)).error).toBeNull();
  });

  it("queue status, run --queue and worker exit 2 with one line on a refused password", async () => {
    const url = `redis://:wrong-pw@127.0.0.1:${port}`;
    for (const args of [
      ["queue", "status", url],
      ["run", "test/fixtures/tasks/seeded", "-a", "oracle", "--jobs-dir", join(dir, "jobs"), "--queue", url],
      ["worker", "--redis", url, "--sandbox", "bwrap", "--cache", join(dir, "cache")],
    ]) {
      const r = await runCli(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(/refused the password/);
      expect(r.stderr).not.toContain("wrong-pw");
    }
  }, 30_000);
});
