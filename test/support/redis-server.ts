import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A real redis-server on a free port in a temp folder, with the persistence the queue requires. */
export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  /** kill -9, as a crash would. */
  crash(): Promise<void>;
  /** Start again on the same port and folder (the append-only file is replayed). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export const REDIS_BIN = "/usr/bin/redis-server";

/** `password`: the server requires it (`--requirepass`), and `url` carries it. */
export async function startRedis(o: { password?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "longhaul-test-redis-"));
  let child: ChildProcess | null = null;
  const launch = async (): Promise<void> => {
    child = spawn(
      REDIS_BIN,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
        ...(o.password === undefined ? [] : ["--requirepass", o.password]),
      ],
      { stdio: "ignore" },
    );
    await waitForPort(port);
  };
  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child;
    child = null;
    if (c === null || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once("exit", resolve));
    c.kill(signal);
    await exited;
  };
  await launch();
  return {
    url: `redis://${o.password === undefined ? "" : `:${o.password}@`}127.0.0.1:${port}`,
    port,
    dir,
    crash: () => kill("SIGKILL"),
    restart: launch,
    stop: async () => {
      await kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = createConnection({ port, host: "127.0.0.1" });
      s.once("connect", () => {
        s.end();
        resolve(true);
      });
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not listen on port ${port} within ${timeoutMs} ms`);
}
