import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reachableSocket } from "./socket-path.js";

const dirs: string[] = [];
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A listening socket moved into a folder whose path is longer than an address can hold. */
async function deepSocket(): Promise<string> {
  const root = mkdtempSync("/tmp/lh-sock-test-");
  dirs.push(root);
  const server = createServer((c) => c.end("hi"));
  servers.push(server);
  await new Promise<void>((r) => server.listen(join(root, "s.sock"), r));
  const deep = join(root, "x".repeat(60), "y".repeat(60));
  mkdirSync(deep, { recursive: true });
  renameSync(join(root, "s.sock"), join(deep, "s.sock"));
  return join(deep, "s.sock");
}

function greeting(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const c = connect(path);
    c.on("data", (d) => {
      text += d.toString();
    });
    c.on("end", () => resolve(text));
    c.on("error", reject);
  });
}

describe("reachableSocket", () => {
  it("reaches a socket whose path is too long for an address through a short link", async () => {
    const long = await deepSocket();
    expect(Buffer.byteLength(long)).toBeGreaterThan(108);
    await expect(greeting(long)).rejects.toThrow();
    const s = reachableSocket(long);
    expect(s.path.length).toBeLessThanOrEqual(100);
    expect(await greeting(s.path)).toBe("hi");
    s.release();
    expect(existsSync(s.path)).toBe(false);
    expect(existsSync(long)).toBe(true);
  });

  it("keeps a short path as it is", () => {
    const s = reachableSocket("/tmp/a/tmux.sock");
    expect(s.path).toBe("/tmp/a/tmux.sock");
    s.release();
  });
});
