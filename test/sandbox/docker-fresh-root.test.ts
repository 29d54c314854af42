import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerProvider } from "../../src/sandbox/docker/docker-provider.js";
import { inspectImage } from "../../src/sandbox/image/inspect.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

const TEST_IMAGE = "longhaul-test-docker-fresh-root:1";

function docker(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("docker", args, { encoding: "utf8", timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** This process's running (or, with `all`, any) fresh-root containers (ExecOptions.imageRoot). */
const freshContainers = (all = false): string[] =>
  docker(
    "ps",
    ...(all ? ["-a"] : []),
    "-q",
    "--filter",
    "label=longhaul.sandbox=fresh-root",
    "--filter",
    `label=longhaul.owner-pid=${process.pid}`,
  )
    .stdout.split("\n")
    .filter((l) => l !== "");

async function waitFor(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}

describe("docker: execs on a fresh copy of the image (imageRoot)", () => {
  let root: string;
  let image: ImageRef;
  let count = 0;
  const provider = new DockerProvider();
  const make = (p = provider): Promise<Sandbox> =>
    p.create({
      ...{ environmentDir: null, workdir: "/app", allowInternet: false },
      ...{ memoryMb: 256, cpus: 1, pidsMax: 128 },
      stateDir: join(root, `state-${++count}`),
      image,
      // The agent runs as root, so it can edit the image's /etc/passwd.
      user: "root",
    });

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = mkdtempSync(join(tmpdir(), "longhaul-docker-fresh-"));
    const ctx = join(root, "image");
    mkdirSync(ctx);
    writeFileSync(
      join(ctx, "Dockerfile"),
      `FROM ${TEST_BASE_IMAGE}\nRUN useradd -u 1234 worker\nWORKDIR /app\n`,
    );
    const built = docker("build", "-q", "-t", TEST_IMAGE, ctx);
    expect(built.status, built.stderr).toBe(0);
    const found = await inspectImage(TEST_IMAGE);
    if (found === null) throw new Error("test image was not built");
    image = found;
  }, 600_000);

  afterAll(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("runs as a user looked up in the image as built, not in the /etc/passwd the agent edited", async () => {
    const s = await make();
    try {
      // The agent makes worker uid 0 in its own root.
      await s.exec("sed -i 's/^worker:x:1234:/worker:x:0:/' /etc/passwd");
      expect((await s.exec("id -u", { user: "worker" })).stdout).toBe("0\n");
      const out = join(root, "out");
      mkdirSync(out);
      const r = await s.exec("id -u; echo v > /out/r.txt", {
        imageRoot: true,
        user: "worker",
        mounts: [{ hostPath: out, sandboxPath: "/out", readonly: false }],
      });
      expect(r).toMatchObject({ exitCode: 0, stdout: "1234\n" });
      expect(statSync(join(out, "r.txt")).uid).toBe(1234);
    } finally {
      await s.close();
    }
  }, 60_000);

  it("killAll, an abort and close end a running exec by removing its container", async () => {
    const s = await make();
    const running = s.exec(["sleep", "300"], { imageRoot: true });
    await waitFor("the exec's container", () => freshContainers().length === 1);
    await s.killAll();
    expect(await running).toMatchObject({ exitCode: null, timedOut: false });
    expect(freshContainers()).toEqual([]);
    // Aborted while its container is being made: none runs, and close removes what was made.
    for (const ms of [20, 300]) {
      const ac = new AbortController();
      const early = s.exec(["sleep", "300"], { imageRoot: true, signal: ac.signal });
      setTimeout(() => ac.abort(), ms);
      expect(await early).toMatchObject({ exitCode: null });
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(freshContainers()).toEqual([]);
    const again = s.exec(["sleep", "300"], { imageRoot: true });
    await waitFor("the exec's container", () => freshContainers().length === 1);
    await s.close();
    expect((await again).exitCode).not.toBe(0);
    expect(freshContainers(true)).toEqual([]);
  }, 60_000);

  /** What a background process wrote to `path` under /logs (a host folder), once it has. */
  const written = async (s: Sandbox, path: string): Promise<string> => {
    const host = s.hostPathOf?.(path) ?? null;
    if (host === null) throw new Error(`${path} is not kept on the host`);
    await waitFor(path, () => existsSync(host) && readFileSync(host, "utf8").endsWith("end\n"));
    return readFileSync(host, "utf8");
  };
  const REPORT = [
    "bash",
    "-c",
    'o=/logs/out/$1.txt; { cat /etc/agent-mark 2>/dev/null || echo image; cat /longhaul/agent-root/etc/agent-mark; id -u; echo end; } > "$o"; exec sleep 300',
    "report",
  ];

  it("runs an imageRoot background process in a fresh container of the image, ended by killAll and close", async () => {
    const s = await make();
    try {
      // Open to the image's user too (the sandbox's own is root).
      await s.exec("echo agent > /etc/agent-mark; mkdir -m 777 /logs/out");
      await s.spawnBackground?.([...REPORT, "bg"], { imageRoot: true, user: "worker" });
      // The image's system (not the agent's change), the agent's root beside it, the image's user.
      expect(await written(s, "/logs/out/bg.txt")).toBe("image\nagent\n1234\nend\n");
      expect(freshContainers()).toHaveLength(1);
      await s.killAll();
      expect(freshContainers(true)).toEqual([]);
      await s.spawnBackground?.([...REPORT, "again"], { imageRoot: true });
      expect(await written(s, "/logs/out/again.txt")).toBe("image\nagent\n0\nend\n");
      expect(freshContainers()).toHaveLength(1);
    } finally {
      await s.close();
    }
    expect(freshContainers(true)).toEqual([]);
  }, 60_000);

  it("without a merged folder from docker, warns once and runs imageRoot commands in the agent's container", async () => {
    // "<no value>": a storage driver without a merged folder; a path not on this host: a remote daemon.
    for (const merged of ["<no value>", join(root, "remote-daemon", "merged")]) {
      const warnings: string[] = [];
      const asked: string[] = [];
      const p = new DockerProvider({
        onWarning: (m) => warnings.push(m),
        mergedDirOf: async (container) => {
          asked.push(container);
          return merged;
        },
      });
      // Made and closed side by side: the checks below are each sandbox's own.
      const sandboxes = await Promise.all([make(p), make(p)]);
      try {
        for (const s of sandboxes) {
          await s.exec("echo agent > /etc/agent-mark");
          for (let i = 0; i < 2; i++)
            expect(await s.exec("cat /etc/agent-mark; id -u", { imageRoot: true })).toMatchObject({
              exitCode: 0,
              stdout: "agent\n0\n",
            });
        }
        const [first] = sandboxes;
        if (first === undefined) throw new Error("no sandbox");
        await first.spawnBackground?.(
          ["bash", "-c", "cat /etc/agent-mark > /logs/bg.txt; echo end >> /logs/bg.txt"],
          {
            imageRoot: true,
          },
        );
        expect(await written(first, "/logs/bg.txt")).toBe("agent\nend\n");
        // No container of its own was made for any of them.
        expect(freshContainers(true)).toEqual([]);
        // Asked once per sandbox; the warning given once for the provider.
        expect(asked).toHaveLength(2);
        expect(warnings).toEqual([expect.stringContaining("no overlay2 merged folder")]);
      } finally {
        await Promise.all(sandboxes.map((s) => s.close()));
      }
    }
  }, 120_000);
});
