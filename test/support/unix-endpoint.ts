import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelEndpoint } from "../../src/agents/types.js";

/**
 * A stand-in for the model gateway's unix socket: every connection to `socketPath` is piped to
 * the loopback server's TCP port, bytes unchanged. Tests build a ModelEndpoint on it the way the
 * runner does once the gateway starts one per trial.
 */
export interface UnixEndpoint {
  endpoint: ModelEndpoint;
  close(): Promise<void>;
}

export async function startUnixEndpoint(
  loopbackUrl: string,
  provider: string,
  model: string,
  token = "lh-trial-token-0001",
): Promise<UnixEndpoint> {
  const target = new URL(loopbackUrl);
  // World-searchable: a sandbox may run as another uid.
  const dir = mkdtempSync(join(tmpdir(), "longhaul-test-gw-"));
  chmodSync(dir, 0o755);
  const socketPath = join(dir, "gateway.sock");
  const sockets = new Set<Socket>();
  const server = createServer((c) => {
    const u = createConnection(Number(target.port), target.hostname);
    sockets.add(c).add(u);
    c.pipe(u);
    u.pipe(c);
    c.on("error", () => u.destroy());
    u.on("error", () => c.destroy());
    c.on("close", () => sockets.delete(c));
    u.on("close", () => sockets.delete(u));
  });
  await new Promise<void>((ok) => server.listen(socketPath, ok));
  chmodSync(socketPath, 0o666);
  return {
    endpoint: { hostUrl: `${target.protocol}//${target.host}`, socketPath, token, provider, model },
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          ok();
        });
      }),
  };
}
