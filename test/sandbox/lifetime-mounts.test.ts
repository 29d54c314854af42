import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingMounts } from "../../src/agents/installed/installed-agent.js";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import { dockerUnavailable } from "../../src/sandbox/image/docker-cli.js";
import type { Mount, SandboxProvider, SandboxSpec } from "../../src/sandbox/types.js";
import { ensureTestBaseImage } from "../support/base-image.js";

/**
 * SandboxSpec.mounts: binds for the sandbox's whole life, in every exec. On docker they are real
 * binds made at `docker run`, so a unix socket in a bound folder answers from inside.
 */
const noDocker = await dockerUnavailable();
let root: string;
let server: Server;
let socketDir: string;
let dataDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "lh-lifetime-"));
  dataDir = join(root, "data");
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, "hello.txt"), "bound\n");
  socketDir = join(root, "gw");
  mkdirSync(socketDir, { mode: 0o755 });
  server = createServer((c) => c.end("pong\n"));
  await new Promise<void>((ok) => server.listen(join(socketDir, "s.sock"), ok));
  chmodSync(join(socketDir, "s.sock"), 0o666);
  if (noDocker === null) await ensureTestBaseImage();
}, 600_000);
afterAll(async () => {
  await new Promise<void>((ok) => server?.close(() => ok()));
  rmSync(root, { recursive: true, force: true });
});

function spec(name: string, mounts: Mount[]): SandboxSpec {
  return {
    environmentDir: null,
    workdir: "/app",
    memoryMb: 256,
    cpus: 1,
    pidsMax: 128,
    allowInternet: false,
    stateDir: join(root, `state-${name}`),
    mounts,
  };
}

const mounts = (): Mount[] => [
  { hostPath: dataDir, sandboxPath: "/longhaul/data", readonly: true },
  { hostPath: socketDir, sandboxPath: "/longhaul/gw", readonly: true },
];

// python3 is in both the host's /usr (bwrap) and the base image (docker).
const CONNECT =
  'import socket; s = socket.socket(socket.AF_UNIX); s.connect("/longhaul/gw/s.sock"); print(s.recv(16).decode().strip())';

async function check(provider: SandboxProvider, name: string, asOther: boolean): Promise<void> {
  const sbx = await provider.create(spec(name, mounts()));
  try {
    for (let i = 0; i < 2; i++) {
      const r = await sbx.exec("cat /longhaul/data/hello.txt; touch /longhaul/data/x 2>/dev/null || echo ro");
      expect(r.stdout).toBe("bound\nro\n");
    }
    const s = await sbx.exec(["python3", "-c", CONNECT]);
    expect(s.stdout.trim()).toBe("pong");
    if (asOther) {
      // A task's `[agent] user` is another uid: the socket (0666 here too) answers it as well.
      const o = await sbx.exec(["python3", "-c", CONNECT], { user: "nobody" });
      expect({ out: o.stdout.trim(), err: o.stderr }).toEqual({ out: "pong", err: "" });
    }
    // A per-exec mount (copied in by docker) works beside them.
    const t = await sbx.exec("cat /tests/hello.txt", {
      mounts: [{ hostPath: dataDir, sandboxPath: "/tests", readonly: true }],
    });
    expect(t.stdout).toBe("bound\n");
  } finally {
    await sbx.close();
  }
}

describe("lifetime mounts", () => {
  it("bwrap binds them into every exec, a unix socket included", async () => {
    await check(new BwrapProvider(), "bwrap", false);
  }, 60_000);

  it.skipIf(noDocker !== null)(
    `docker binds them at creation, a unix socket included${noDocker === null ? "" : ` (skipped: ${noDocker})`}`,
    async () => {
      await check(new DockerProvider(), "docker", true);
    },
    120_000,
  );

  it("an installed agent passes per exec only the binds its sandbox lacks", () => {
    const m = mounts();
    const [data, gw] = m as [Mount, Mount];
    expect(missingMounts(m, m)).toEqual([]);
    expect(missingMounts(m, [gw])).toEqual([data]);
    // The same bind with another mode is another bind: the agent's own stays read-only.
    expect(missingMounts([data], [{ ...data, readonly: false }])).toEqual([data]);
    expect(missingMounts([data], [{ ...data, hostPath: "/elsewhere" }])).toEqual([data]);
  });
});
