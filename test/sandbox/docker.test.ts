import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/core/errors.js";
import { prepareVerifierLogs } from "../../src/runner/verifier-logs.js";
import { DockerProvider, sweepStaleContainers } from "../../src/sandbox/docker/docker-provider.js";
import { inspectImage } from "../../src/sandbox/image/inspect.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";
import type { Sandbox, SandboxSpec } from "../../src/sandbox/types.js";
import { ensureTestBaseImage, TEST_BASE_IMAGE } from "../support/base-image.js";

const TEST_IMAGE = "longhaul-test-docker-provider:1";

function docker(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("docker", args, { encoding: "utf8", timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const exists = (container: string): boolean => docker("inspect", container).status === 0;
const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

describe("docker sandbox provider", () => {
  let root: string;
  let count = 0;
  let provider: DockerProvider;
  let image: ImageRef;
  const open: Sandbox[] = [];
  const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => {
    count += 1;
    return {
      environmentDir: null,
      workdir: "/app",
      memoryMb: 256,
      cpus: 1,
      pidsMax: 128,
      allowInternet: false,
      stateDir: join(root, `state-${count}`),
      ...over,
    };
  };
  const make = async (over: Partial<SandboxSpec> = {}): Promise<Sandbox> => {
    const s = await provider.create(spec(over));
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    await ensureTestBaseImage();
    root = mkdtempSync(join(tmpdir(), "longhaul-docker-test-"));
    provider = new DockerProvider({ defaultImage: TEST_BASE_IMAGE });
    await provider.check();
    // A task image in the style of a Harbor Dockerfile: WORKDIR, COPY, ENV and USER.
    const ctx = join(root, "image");
    mkdirSync(ctx);
    writeFileSync(join(ctx, "hello.txt"), "hello from the image\n");
    writeFileSync(
      join(ctx, "Dockerfile"),
      [
        `FROM ${TEST_BASE_IMAGE}`,
        "RUN useradd -m -u 1234 worker && mkdir -p /srv/work && chown worker /srv/work",
        "WORKDIR /srv/work",
        "COPY --chown=worker hello.txt .",
        "ENV GREETING=from-env PATH=/opt/tools:/usr/local/bin:/usr/bin:/bin",
        "USER worker",
        "",
      ].join("\n"),
    );
    const built = docker("build", "--network", "host", "-q", "-t", TEST_IMAGE, ctx);
    expect(built.status, built.stderr).toBe(0);
    const found = await inspectImage(TEST_IMAGE);
    if (found === null) throw new Error("test image was not built");
    image = found;
  }, 600_000);

  afterAll(async () => {
    for (const s of open) await s.close();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  it("labels its container and removes it on close", async () => {
    const s = await provider.create(spec());
    const name = `lh-${s.id}`;
    const labels = JSON.parse(docker("inspect", "-f", "{{json .Config.Labels}}", name).stdout) as Record<
      string,
      string
    >;
    expect(labels["longhaul.sandbox"]).toBe(s.id);
    expect(labels["longhaul.owner-pid"]).toBe(String(process.pid));
    expect(labels["longhaul.host"]).toBeTruthy();
    const hc = docker(
      "inspect",
      "-f",
      "{{.HostConfig.NetworkMode}} {{.HostConfig.Memory}} {{.HostConfig.PidsLimit}}",
      name,
    );
    expect(hc.stdout.trim()).toBe(`none ${256 * 1024 * 1024} 128`);
    await s.close();
    expect(exists(name)).toBe(false);
    await s.close();
  });

  it("leaves nothing behind when longhaul is killed with -9: the next sweep removes the container", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "docker-crash-child.ts"), TEST_BASE_IMAGE, root],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const name = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /container (\S+)\n/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", () => reject(new Error(`child exited early: ${err}`)));
    });
    expect(exists(name)).toBe(true);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(exists(name)).toBe(true);
    const removed = await sweepStaleContainers();
    expect(removed).toContain(name);
    expect(exists(name)).toBe(false);
  }, 120_000);

  it("runs over a task image with its WORKDIR content, ENV and USER", async () => {
    const s = await make({ image, workdir: "/srv/work" });
    const r = await s.exec(
      'id -un; pwd; echo "$GREETING"; cat hello.txt; echo mine > made.txt && stat -c %U made.txt',
    );
    expect(r.stdout).toBe("worker\n/srv/work\nfrom-env\nhello from the image\nworker\n");
    // An argv runs without a login shell, whose /etc/profile resets PATH for non-root users.
    expect((await s.exec(["printenv", "PATH"])).stdout).toBe("/opt/tools:/usr/local/bin:/usr/bin:/bin\n");
    // Exec env comes on top of the image's.
    expect((await s.exec("echo $GREETING", { env: { GREETING: "override" } })).stdout).toBe("override\n");
    // The whole root file system is the container's own and writable by its root: not by worker.
    expect((await s.exec("touch /etc/x")).exitCode).not.toBe(0);
    // The workdir is kept on the host, owned by the image's user.
    const host = s.hostPathOf?.("/srv/work/made.txt") ?? "";
    expect(readFileSync(host, "utf8")).toBe("mine\n");
    expect(s.hostPathOf?.("/etc/passwd")).toBeNull();
  });

  it("kills a non-root user's command on timeout and in killAll, and mounts read-only for it too", async () => {
    const s = await make({ image, workdir: "/srv/work" });
    const t = await s.exec("sleep 100 & sleep 100", { timeoutSec: 1 });
    expect(t).toMatchObject({ timedOut: true, exitCode: null });
    await s.spawnBackground?.(["sleep", "300"]);
    const running = s.exec(["sleep", "300"]);
    await new Promise((r) => setTimeout(r, 500));
    await s.killAll();
    expect((await running).exitCode).toBeNull();
    const ps = await s.exec("for d in /proc/[0-9]*; do cat $d/comm; done | sort | uniq -c");
    expect(ps.stdout).not.toMatch(/\d+ sleep\n[\s\S]*\d+ sleep|^\s+[2-9] sleep/m);
    const ro = join(root, "ro-user");
    const out = join(root, "out-user");
    mkdirSync(ro);
    mkdirSync(out);
    writeFileSync(join(ro, "t.sh"), "echo graded\n");
    const v = await s.exec(
      "bash /tests/t.sh; echo x > /tests/t.sh || echo refused; chmod u+w /tests/t.sh || echo nochmod; echo r > /out/r.txt; ls -A /tmp | wc -l",
      {
        mounts: [
          { hostPath: ro, sandboxPath: "/tests", readonly: true },
          { hostPath: out, sandboxPath: "/out", readonly: false },
        ],
        freshDirs: ["/tmp"],
      },
    );
    expect(v.stdout).toBe("graded\nrefused\nnochmod\n0\n");
    expect(readFileSync(join(out, "r.txt"), "utf8")).toBe("r\n");
    expect((await s.exec("test -e /tests || test -e /out")).exitCode).not.toBe(0);
  });

  it("stages several mounts at once, nested ones too, and leaves no trace for the next command", async () => {
    const s = await make();
    const container = (s as Sandbox & { containerName: string }).containerName;
    const src = join(root, "staged");
    for (const d of ["tests", "kit", "inner"]) mkdirSync(join(src, d), { recursive: true });
    writeFileSync(join(src, "tests", "t.sh"), "echo graded\n");
    writeFileSync(join(src, "kit", "k.txt"), "kit\n");
    writeFileSync(join(src, "inner", "i.txt"), "inner\n");
    // What the agent left where the mounts go is set aside, then put back.
    await s.exec("mkdir -p /tests /srv/lh && echo mine > /tests/own.txt && echo keep > /srv/lh/keep");
    const mounts = [
      { hostPath: join(src, "tests"), sandboxPath: "/tests", readonly: true },
      { hostPath: join(src, "kit"), sandboxPath: "/srv/lh/kit", readonly: true },
      { hostPath: join(src, "kit"), sandboxPath: "/nest", readonly: true },
      { hostPath: join(src, "inner"), sandboxPath: "/nest/inner", readonly: true },
    ];
    const v = await s.exec(
      "bash /tests/t.sh; ls /tests; cat /srv/lh/kit/k.txt /srv/lh/keep /nest/k.txt /nest/inner/i.txt; rm -f /tests/t.sh 2>/dev/null || echo refused",
      { mounts },
    );
    expect(v.stdout).toBe("graded\nt.sh\nkit\nkeep\nkit\ninner\nrefused\n");
    // The read-only copies went to trash, sealed for the next command, which finds none of it.
    expect(docker("exec", container, "bash", "-c", "ls -A / /srv/lh").stdout).toMatch(/\.longhaul-trash-/);
    const after = await s.exec("ls -A / /srv/lh | grep -c longhaul-trash; cat /tests/own.txt; ls -A /srv/lh");
    expect(after.stdout).toBe("0\nmine\nkeep\n");
    expect((await s.exec("test -e /nest")).exitCode).not.toBe(0);
  });

  it("runs as the task's [agent] user instead of USER, and one exec as another user, killed too", async () => {
    const s = await make({ image, workdir: "/srv/work", user: "root" });
    expect((await s.exec("id -u")).stdout).toBe("0\n");
    const out = join(root, "out-as-user");
    mkdirSync(out);
    const v = await s.exec("id -un; echo v > /out/r.txt && stat -c %U /out/r.txt", {
      user: "worker",
      mounts: [{ hostPath: out, sandboxPath: "/out", readonly: false }],
    });
    expect(v).toMatchObject({ exitCode: 0, stdout: "worker\nworker\n" });
    expect(readFileSync(join(out, "r.txt"), "utf8")).toBe("v\n");
    // Another user's command still dies on timeout and in killAll.
    expect(await s.exec("sleep 100", { user: "nobody", timeoutSec: 1 })).toMatchObject({ timedOut: true });
    const running = s.exec(["sleep", "300"], { user: "nobody" });
    await new Promise((r) => setTimeout(r, 500));
    await s.killAll();
    expect((await running).exitCode).toBeNull();
    await expect(s.exec("true", { user: "no-such-user" })).rejects.toThrow(/no-such-user/);
  });

  it("runs a background process as the user it names, and killAll ends it too", async () => {
    const s = await make({ image, workdir: "/srv/work", user: "root" });
    await s.exec("mkdir -m 777 /logs/out");
    await s.spawnBackground?.(["bash", "-c", "id -un > /logs/out/u.txt; exec sleep 300"], { user: "worker" });
    const host = s.hostPathOf?.("/logs/out/u.txt") ?? "";
    const size = (): number => (existsSync(host) ? readFileSync(host).length : 0);
    for (let i = 0; i < 100 && size() === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(host, "utf8")).toBe("worker\n");
    // Root in the container has no capabilities: only killAll as worker reaches the process.
    await s.killAll();
    const left = await s.exec("for d in /proc/[0-9]*; do tr '\\0' ' ' < $d/cmdline; echo; done");
    expect(left.stdout).not.toContain("sleep 300");
  });

  it("keeps /logs on the host, so the runner's verifier logs (a fresh /logs, /logs/agent read-only) work", async () => {
    const s = await make();
    await s.exec("echo agent-said > /logs/agent/a.txt; echo stale > /logs/verifier/reward.txt");
    const agentHost = s.hostPathOf?.("/logs/agent/a.txt") ?? "";
    expect(readFileSync(agentHost, "utf8")).toBe("agent-said\n");
    const vlogs = await prepareVerifierLogs(s);
    try {
      const r = await s.exec(
        "cat /logs/agent/a.txt; ls /logs/verifier; echo x > /logs/agent/a.txt || echo refused; echo 1 > /logs/verifier/reward.txt",
        { mounts: vlogs.mounts, freshDirs: ["/root", "/tmp"] },
      );
      expect(r.stdout).toBe("agent-said\nrefused\n");
      expect(readFileSync(join(vlogs.hostDir ?? "", "reward.txt"), "utf8")).toBe("1\n");
    } finally {
      vlogs.dispose();
    }
    expect(readFileSync(agentHost, "utf8")).toBe("agent-said\n");
    expect((await s.exec("cat /logs/verifier/reward.txt; cat /logs/agent/a.txt")).stdout).toBe(
      "stale\nagent-said\n",
    );
  });

  it("measures a tree deeper than the host can name toward storage_mb instead of killing on sight", async () => {
    // The watch also runs during the verifier: a small deep tree the agent left in /tmp (a host
    // folder) or /opt (the container's own) counted as over every quota, so the verifier was
    // killed and the trial became a grading error of the agent's choosing.
    const warnings: string[] = [];
    const p = new DockerProvider({
      defaultImage: TEST_BASE_IMAGE,
      storageCheckMs: 100,
      onWarning: (w) => warnings.push(w),
    });
    // Closed here: over its quota, its watchdog would go on killing every 100 ms until afterAll.
    const s = await p.create(spec({ storageMb: 64 }));
    try {
      const deep = (at: string, then: string): string =>
        `d=$(printf 'd%.0s' $(seq 200)); mkdir -p ${at} && cd ${at} && for i in $(seq 25); do mkdir -p $d && cd $d; done; ${then}`;
      const small = await s.exec(
        `(${deep("/tmp", "echo x > leaf")}) && (${deep("/opt/deep", "echo x > leaf")}) && sleep 1.5`,
      );
      expect(small.exitCode, small.stderr).toBe(0);
      expect(warnings.join("\n")).not.toMatch(/disk quota/);
      // Still over the quota when what lies down there is: 80 MB against 64 in the container's own root.
      const big = await s.exec(deep("/opt/deep", "head -c 80000000 /dev/zero > big; sleep 20"), {
        timeoutSec: 15,
      });
      expect(big).toMatchObject({ exitCode: null, timedOut: false });
      expect(warnings.join("\n")).toMatch(/over its 64 MB disk quota/);
    } finally {
      await s.close();
    }
  }, 60_000);

  it("removes a state folder holding a tree deeper than the host can name on close", async () => {
    // Without a quota image the agent's /tmp is a plain host folder: Node's rm, going by path,
    // threw ENAMETOOLONG out of close() there (a trial's clean-up, which ended the whole job).
    const s = await provider.create(spec());
    const made = await s.exec(
      "d=$(printf 'd%.0s' $(seq 200)); cd /tmp && for i in $(seq 25); do mkdir $d && cd $d; done; echo x > leaf",
    );
    expect(made.exitCode, made.stderr).toBe(0);
    await s.close();
    expect(existsSync(s.spec.stateDir)).toBe(false);
  });

  it("ends an exec whose fresh /tmp, /root or writable /logs got a tree deeper than a path can name", async () => {
    // A verifier runs the agent's program in its own container (a plain task over an image):
    // undoing the exec's folders threw ENAMETOOLONG (Node's rm) or "could not copy" (cp going by
    // path) out of the exec, so the agent chose the trial's error.
    const s = await make({ storageMb: 64 });
    const vlogs = await prepareVerifierLogs(s);
    try {
      const r = await s.exec(
        "d=$(printf 'd%.0s' $(seq 200)); for t in /tmp /root /logs/verifier; do (cd $t && for i in $(seq 25); do mkdir $d && cd $d; done; echo x > leaf); done; echo 0 > /logs/verifier/reward.txt",
        { mounts: vlogs.mounts, freshDirs: ["/root", "/tmp"] },
      );
      expect(r.exitCode, r.stderr).toBe(0);
      expect(readFileSync(join(vlogs.hostDir ?? "", "reward.txt"), "utf8")).toBe("0\n");
    } finally {
      vlogs.dispose();
    }
    expect((await s.exec("ls -A /tmp /root /logs/verifier")).stdout).not.toMatch(/ddd/);
  });

  it("enforces the memory limit through the container's cgroup", async () => {
    const s = await make({ memoryMb: 160 });
    const lim = await s.exec(
      "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory/memory.memsw.limit_in_bytes 2>/dev/null | head -1",
    );
    expect(Number(lim.stdout.trim())).toBe(160 * 1024 * 1024);
    const r = await s.exec(["python3", "-c", "b = bytearray(400 * 1024 * 1024); print('survived')"], {
      timeoutSec: 60,
    });
    expect(r.stdout).not.toContain("survived");
    expect((await s.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("refuses nested sandboxes and a missing default image with a UserError", async () => {
    const s = await make();
    await expect(s.exec("true", { nestedSandbox: true })).rejects.toBeInstanceOf(UserError);
    const missing = new DockerProvider({ defaultImage: "longhaul-no-such-image:never" });
    await expect(missing.create(spec())).rejects.toThrow(
      /longhaul images bootstrap --tag longhaul-no-such-image:never/,
    );
  });

  it("starts a sandbox and runs execs quickly enough (numbers printed for the report)", async () => {
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const s = await provider.create(spec());
      expect((await s.exec(["true"])).exitCode).toBe(0);
      starts.push(performance.now() - t0);
      await s.close();
    }
    const s = await make();
    const trips: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      await s.exec(["true"]);
      trips.push(performance.now() - t0);
    }
    process.stdout.write(
      `docker sandbox: create-to-first-exec p50 ${p50(starts).toFixed(0)} ms, exec round trip p50 ${p50(trips).toFixed(0)} ms\n`,
    );
    expect(p50(starts)).toBeLessThan(10_000);
    expect(p50(trips)).toBeLessThan(2_000);
  }, 120_000);
});
