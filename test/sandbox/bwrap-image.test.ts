import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BwrapProvider, sweepStaleSandboxes } from "../../src/sandbox/bwrap-provider.js";
import type { BwrapSandbox } from "../../src/sandbox/bwrap-sandbox.js";
import { inspectImage } from "../../src/sandbox/image/inspect.js";
import { ensureRootfs } from "../../src/sandbox/image/rootfs-cache.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import { readRecords } from "../../src/sandbox/sweep.js";
import type { SandboxSpec } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

let root: string;
let base: ImageRef;
let tool: ImageRef;
let n = 0;
const registryDir = (): string => join(root, "registry");
const provider = (over: ConstructorParameters<typeof BwrapProvider>[0] = {}): BwrapProvider =>
  new BwrapProvider({ rootfsFor: ensureRootfs, registryDir: registryDir(), ...over });
const spec = (image: ImageRef, over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  environmentDir: null,
  workdir: image.config.workdir ?? "/app",
  memoryMb: 512,
  cpus: 1,
  pidsMax: 256,
  allowInternet: false,
  stateDir: join(root, `state-${++n}`),
  image,
  ...over,
});
const mountsUnder = (dir: string): string[] =>
  readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => l.split(" ")[4] ?? "")
    .filter((p) => p.startsWith(dir));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "longhaul-bwimg-"));
  base = await ensureTestBaseImage();
  // WORKDIR, COPY, ENV, USER of a user made in the image, and a build-time RUN.
  const ctx = join(root, "context");
  spawnSync("mkdir", ["-p", ctx]);
  writeFileSync(join(ctx, "hello.txt"), "copied at build\n");
  writeFileSync(
    join(ctx, "Dockerfile"),
    [
      `FROM ${TEST_BASE_IMAGE}`,
      "RUN useradd -m -u 1234 agent && mkdir -p /opt && echo tool-v1 > /opt/tool",
      "WORKDIR /srv/work",
      "COPY hello.txt .",
      "ENV FOO=bar-from-image",
      "USER agent",
      "",
    ].join("\n"),
  );
  const tag = "longhaul-test-bwimg:tool";
  const built = spawnSync("docker", ["build", "--network", "host", "-q", "-t", tag, ctx], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`docker build failed: ${built.stderr}`);
  const ref = await inspectImage(tag);
  if (ref === null) throw new Error(`${tag} not found after build`);
  tool = ref;
}, 600_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("bwrap over an image", () => {
  it("starts in the image's WORKDIR as its USER, with its ENV, COPY'd files and build-time files", async () => {
    expect(tool.config).toMatchObject({ workdir: "/srv/work", user: "agent" });
    const s = await provider().create(spec(tool));
    try {
      const r = await s.exec("pwd; cat hello.txt; echo $FOO; id -un; id -u; cat /opt/tool; echo $HOME");
      expect(r).toMatchObject({ exitCode: 0, stderr: "" });
      expect(r.stdout).toBe(
        "/srv/work\ncopied at build\nbar-from-image\nagent\n1234\ntool-v1\n/home/agent\n",
      );
      // The exec's own variables come on top of the image's.
      expect((await s.exec("echo $FOO", { env: { FOO: "mine" } })).stdout).toBe("mine\n");
      // The image user owns its home and cannot write root's folders, as in a container.
      const w = await s.exec("touch ~/ok && echo home-ok; touch /usr/x 2>/dev/null || echo usr-refused");
      expect(w.stdout).toBe("home-ok\nusr-refused\n");
      // The runner reaches the workdir and /logs on the host.
      const host = (s as BwrapSandbox).hostPathOf("/srv/work/hello.txt");
      expect(host !== null && readFileSync(host, "utf8")).toBe("copied at build\n");
      await s.exec("echo from-agent > /logs/agent/note");
      const logs = (s as BwrapSandbox).hostPathOf("/logs");
      expect(logs !== null && readFileSync(join(logs, "agent", "note"), "utf8")).toBe("from-agent\n");
    } finally {
      await s.close();
    }
  });

  it("runs as the task's [agent] user instead of USER, and one exec as another user of the image", async () => {
    const s = await provider().create(spec(tool, { user: "root" }));
    const out = mkdtempSync(join(root, "out-"));
    try {
      expect((await s.exec("id -u; echo $HOME")).stdout).toBe("0\n/root\n");
      // The verifier's [verifier] user: its writable mounts are its own.
      const v = await s.exec("id -un; echo $HOME; echo v > /out/r.txt && stat -c %U /out/r.txt", {
        user: "agent",
        mounts: [{ hostPath: out, sandboxPath: "/out", readonly: false }],
      });
      expect(v).toMatchObject({ exitCode: 0, stdout: "agent\n/home/agent\nagent\n" });
      expect((await s.exec("id -u; id -g", { user: "nobody" })).stdout).toBe("65534\n65534\n");
      // The next exec is the sandbox's user again.
      expect((await s.exec("id -u")).stdout).toBe("0\n");
      await expect(s.exec("true", { user: "no-such-user" })).rejects.toThrow(/no-such-user/);
    } finally {
      await s.close();
    }
  });

  it("keeps root file system writes across execs, but not into another sandbox or the cached rootfs", async () => {
    const rootfs = await ensureRootfs(base);
    const p = provider();
    const a = await p.create(spec(base));
    const b = await p.create(spec(base));
    try {
      expect((await a.exec("id -u; echo written > /usr/local/bin/mark")).stdout).toBe("0\n");
      expect((await a.exec("cat /usr/local/bin/mark")).stdout).toBe("written\n");
      expect((await b.exec("test -e /usr/local/bin/mark")).exitCode).not.toBe(0);
      expect(existsSync(join(rootfs, "usr/local/bin/mark"))).toBe(false);
      // Deleting an image file hides it in this sandbox only.
      await a.exec("rm /etc/debian_version");
      expect((await a.exec("test -e /etc/debian_version")).exitCode).not.toBe(0);
      expect((await b.exec("test -e /etc/debian_version")).exitCode).toBe(0);
      expect(existsSync(join(rootfs, "etc/debian_version"))).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("shows none of the host's files: not its /etc/shadow, not a canary under /root", async () => {
    const canary = join("/root", `longhaul-canary-${randomBytes(4).toString("hex")}`);
    writeFileSync(canary, "host canary\n", { mode: 0o600 });
    const s = await provider().create(spec(base));
    try {
      const r = await s.exec(["cat", canary]);
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain("host canary");
      const shadow = await s.exec(["cat", "/etc/shadow"]);
      const hostShadow = readFileSync("/etc/shadow", "utf8");
      expect(shadow.stdout).not.toBe(hostShadow);
      // The image's own shadow file (root reads it in a container too), not the host's.
      expect(shadow.stdout).toBe(readFileSync(join(await ensureRootfs(base), "etc/shadow"), "utf8"));
      expect((await s.exec(`ls ${root}`)).exitCode).not.toBe(0);
    } finally {
      await s.close();
      rmSync(canary, { force: true });
    }
  });

  it("unmounts its layer and removes its state on close, and leaves no mount point of exec mounts behind", async () => {
    const st = spec(base, { storageMb: 128 });
    const s = await provider().create(st);
    const extra = mkdtempSync(join(root, "extra-"));
    writeFileSync(join(extra, "t.sh"), "echo graded\n");
    const r = await s.exec("bash /tests/t.sh", {
      mounts: [{ hostPath: extra, sandboxPath: "/tests", readonly: true }],
    });
    expect(r.stdout).toBe("graded\n");
    expect((await s.exec("test -e /tests")).exitCode).not.toBe(0);
    expect(mountsUnder(st.stateDir).length).toBeGreaterThanOrEqual(2);
    await s.close();
    expect(mountsUnder(st.stateDir)).toEqual([]);
    expect(existsSync(st.stateDir)).toBe(false);
  });

  it("falls back to a copy of the rootfs when asked (or when overlayfs is refused), with a warning", async () => {
    const warnings: string[] = [];
    const st = spec(base);
    const s = await provider({ imageLayer: "copy", onWarning: (m) => warnings.push(m) }).create(st);
    try {
      expect(warnings.join("\n")).toMatch(/copied for this sandbox/);
      expect(mountsUnder(st.stateDir)).toEqual([]);
      await s.exec("echo kept > /usr/local/kept");
      expect((await s.exec("cat /usr/local/kept; python3 -c 'print(1)'")).stdout).toBe("kept\n1\n");
    } finally {
      await s.close();
    }
    expect(existsSync(st.stateDir)).toBe(false);
  });

  it("sweeps the overlay and state of a sandbox whose owner died", async () => {
    const st = spec(base);
    const s = await provider().create(st);
    const records = readRecords(registryDir()).filter((r) => r.record.stateDir === st.stateDir);
    expect(records).toHaveLength(1);
    const file = records[0]?.file ?? "";
    const dead = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8")) + 1;
    writeFileSync(file, JSON.stringify({ ...records[0]?.record, ownerPid: dead }));
    expect(mountsUnder(st.stateDir).length).toBe(1);
    const swept = await sweepStaleSandboxes({
      registryDir: registryDir(),
      tmpRoot: join(root, "none"),
      cgroupRoot: null,
    });
    expect(swept).toContain(st.stateDir);
    expect(mountsUnder(st.stateDir)).toEqual([]);
    expect(existsSync(st.stateDir)).toBe(false);
    expect(readdirSync(registryDir()).some((f) => f === file.split("/").pop())).toBe(false);
    await s.close();
  });
});
