import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  const make = (): Promise<Sandbox> =>
    provider.create({
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
});
