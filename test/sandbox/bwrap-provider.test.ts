import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InfraError, UserError } from "../../src/core/errors.js";
import { BWRAP_INSTALL_HINT, BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import type { BwrapSandbox } from "../../src/sandbox/bwrap-sandbox.js";
import type { Sandbox, SandboxSpec } from "../../src/sandbox/types.js";
import { cgroupsWritable } from "../support/cgroups.js";

let root: string;

/** Host pids whose command line is exactly `argv`. */
function pidsOf(argv: readonly string[]): number[] {
  const want = `${argv.join("\0")}\0`;
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8") === want) out.push(Number(name));
    } catch {
      // Exited while listing.
    }
  }
  return out;
}

/** A zombie waiting for the host to reap it counts as gone. */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
const open: Sandbox[] = [];
let n = 0;

function spec(over: Partial<SandboxSpec> = {}): SandboxSpec {
  n += 1;
  return {
    environmentDir: null,
    workdir: "/app",
    memoryMb: 256,
    cpus: 1,
    pidsMax: 128,
    allowInternet: false,
    stateDir: join(root, `state-${n}`),
    ...over,
  };
}

async function make(provider: BwrapProvider, over: Partial<SandboxSpec> = {}): Promise<Sandbox> {
  const s = await provider.create(spec(over));
  open.push(s);
  return s;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "longhaul-bwrap-"));
});

afterAll(async () => {
  for (const s of open) await s.close();
  rmSync(root, { recursive: true, force: true });
});

describe("bwrap provider: setup and failures", () => {
  it("check() says how to install bubblewrap when the binary is missing", async () => {
    const p = new BwrapProvider({ bwrapPath: join(root, "no-such-bwrap") });
    const err = await p.check().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(BWRAP_INSTALL_HINT);
    await expect(p.create(spec())).rejects.toThrow(BWRAP_INSTALL_HINT);
    await expect(new BwrapProvider().check()).resolves.toBeUndefined();
  });

  it("reports a sandbox that cannot start as a retryable InfraError, not as the command's exit", async () => {
    const fake = join(root, "fake-bwrap");
    writeFileSync(
      fake,
      "#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n",
    );
    chmodSync(fake, 0o755);
    const s = await make(new BwrapProvider({ bwrapPath: fake }));
    const err = await s.exec(["true"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as InfraError).retryable).toBe(true);
    expect((err as Error).message).toContain("Creating new namespace failed");
    const real = await make(new BwrapProvider());
    expect((await real.exec("echo 'bwrap: lookalike' >&2; exit 1")).exitCode).toBe(1);
  });

  it("rejects bad specs and a non-empty state folder as user errors", async () => {
    const p = new BwrapProvider();
    await expect(p.create(spec({ workdir: "/usr/app" }))).rejects.toBeInstanceOf(UserError);
    await expect(p.create(spec({ workdir: "relative" }))).rejects.toBeInstanceOf(UserError);
    await expect(p.create(spec({ pidsMax: 0 }))).rejects.toBeInstanceOf(UserError);
    const busy = join(root, "busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "x"), "");
    await expect(p.create(spec({ stateDir: busy }))).rejects.toThrow(/not empty/);
    await expect(p.create(spec({ environmentDir: join(root, "nope") }))).rejects.toBeInstanceOf(UserError);
  });

  it("falls back to rlimits with a warning when cgroups cannot be used", async () => {
    const warnings: string[] = [];
    const p = new BwrapProvider({ cgroupRoot: join(root, "no-cgroups"), onWarning: (w) => warnings.push(w) });
    const s = (await make(p)) as BwrapSandbox;
    expect(s.limitMode).toBe("rlimit");
    expect(warnings.join("\n")).toMatch(/fall back to rlimits/);
    expect((await s.exec("ulimit -d")).stdout.trim()).toBe(String(256 * 1024));
    // A host-wide warning comes once per provider (one job), not once per sandbox.
    await make(p);
    expect(warnings.filter((w) => /fall back to rlimits/.test(w))).toHaveLength(1);
    const strict = new BwrapProvider({ cgroupRoot: join(root, "no-cgroups"), limits: "cgroup" });
    await expect(strict.create(spec())).rejects.toThrow(/need cgroups/);
  });

  it("takes the fallback when $LONGHAUL_CGROUP_ROOT names a folder without cgroups", async () => {
    const before = process.env.LONGHAUL_CGROUP_ROOT;
    const empty = join(root, "empty-cgroup-root");
    mkdirSync(empty);
    process.env.LONGHAUL_CGROUP_ROOT = empty;
    try {
      const warnings: string[] = [];
      const s = (await make(new BwrapProvider({ onWarning: (w) => warnings.push(w) }))) as BwrapSandbox;
      expect(s.limitMode).toBe("rlimit");
      expect(s.cgroupDirs).toEqual([]);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^sandbox limits fall back to rlimits \(cgroup v1 pids and memory controllers are not mounted\)/,
        ),
      ]);
      expect((await s.exec("ulimit -u")).stdout.trim()).toBe("128");
    } finally {
      if (before === undefined) delete process.env.LONGHAUL_CGROUP_ROOT;
      else process.env.LONGHAUL_CGROUP_ROOT = before;
    }
  });
});

describe("bwrap provider: layout and paths", () => {
  let p: BwrapProvider;
  let s: Sandbox;
  beforeAll(async () => {
    p = new BwrapProvider();
    s = await make(p, { workdir: "/workspace/project" });
  });

  it("lays out the state folder and maps sandbox paths to it", async () => {
    const state = s.spec.stateDir;
    for (const d of ["app", "logs/agent", "logs/verifier", "tmp", "home"]) {
      expect(existsSync(join(state, d))).toBe(true);
    }
    expect(s.hostPathOf?.("/workspace/project/src/a.py")).toBe(join(state, "app", "src", "a.py"));
    expect(s.hostPathOf?.("/logs/tmux.sock")).toBe(join(state, "logs", "tmux.sock"));
    expect(s.hostPathOf?.("/root")).toBe(join(state, "home"));
    expect(s.hostPathOf?.("/etc/passwd")).toBeNull();
    expect(s.hostPathOf?.("/workspace")).toBeNull();
    expect((await s.exec("pwd; echo hi > f.txt")).stdout).toBe("/workspace/project\n");
    expect(readFileSync(join(state, "app", "f.txt"), "utf8")).toBe("hi\n");
  });

  it("refuses transfers outside the persistent folders or through symlinks", async () => {
    const file = join(root, "payload.txt");
    writeFileSync(file, "payload\n");
    await expect(s.upload(file, "/etc/payload.txt")).rejects.toThrow(/outside the persistent folders/);
    await expect(s.download("/usr/bin/env", join(root, "env"))).rejects.toBeInstanceOf(UserError);
    await s.exec("ln -s / /tmp/escape && ln -s /etc/hostname /tmp/hostname-link");
    await expect(s.download("/tmp/escape/etc/hostname", join(root, "h"))).rejects.toThrow(/symlink/);
    await expect(s.upload(file, "/tmp/escape/tmp/planted.txt")).rejects.toThrow(/symlink/);
    expect(existsSync("/tmp/planted.txt")).toBe(false);
    // A link itself is copied as a link, never followed on the host.
    await s.download("/tmp/hostname-link", join(root, "link-copy"));
    expect(lstatSync(join(root, "link-copy")).isSymbolicLink()).toBe(true);
  });

  it("removes groups left behind by a run that died, with their processes", async () => {
    const first = (await make(p)) as BwrapSandbox;
    if (!cgroupsWritable()) {
      // No writable cgroups on this host: the sandbox took the rlimit fallback and made no group
      // to leave behind (what a dead run leaves there is swept by uid: bwrap-storage-sweep.test.ts).
      expect(first.limitMode).toBe("rlimit");
      expect(first.cgroupDirs).toEqual([]);
      return;
    }
    expect(first.limitMode).toBe("cgroup");
    const parent = dirname(first.cgroupDirs[0] ?? "/nonexistent/x");
    // A pid above pid_max can never belong to a live process.
    const deadPid = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8")) + 1;
    const stale = join(parent, `longhaul-${deadPid}-sbx-0123456789`);
    const orphan = spawn("sleep", ["300"], { stdio: "ignore" });
    // The suite's other worker sweeps the same parent when it makes a sandbox, and may remove the
    // group between its mkdir and the write (that is the sweep working): make it again then.
    for (let attempt = 0; ; attempt++) {
      try {
        mkdirSync(stale, { recursive: true });
        writeFileSync(join(stale, "cgroup.procs"), String(orphan.pid));
        break;
      } catch (e) {
        if (attempt >= 5 || (e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
    }
    const exited = new Promise((r) => orphan.on("exit", r));
    await make(p);
    expect(existsSync(stale)).toBe(false);
    await expect(exited).resolves.toBeDefined();
  });

  it("masks the host's password hashes", async () => {
    const r = await s.exec("cat /etc/shadow");
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toBe("");
  });

  it("runs a tmux server in the background that the host drives through /logs", async () => {
    const t = await make(p);
    await t.spawnBackground?.(["tmux", "-S", "/logs/tmux.sock", "-D", "-f", "/dev/null"]);
    const sock = t.hostPathOf?.("/logs/tmux.sock") ?? "";
    const tmux = (...args: string[]): string =>
      execFileSync("tmux", ["-S", sock, ...args], {
        encoding: "utf8",
        env: { PATH: process.env.PATH, TERM: "xterm" },
      });
    for (let i = 0; i < 50 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 50));
    tmux("new-session", "-d", "-s", "main", "-c", "/app", "-x", "80", "-y", "24");
    tmux("send-keys", "-t", "main", "echo from-$(hostname) > /tmp/pane.txt", "Enter");
    let seen = "";
    for (let i = 0; i < 50 && seen === ""; i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = (await t.exec("cat /tmp/pane.txt 2>/dev/null; true")).stdout;
    }
    expect(seen).toBe("from-sandbox\n");
    expect(tmux("capture-pane", "-p", "-t", "main")).toContain("echo from-$(hostname)");
    await t.killAll();
    expect(() => tmux("ls")).toThrow();
  });

  // On this host's default (cgroups when writable) and, on every host, the forced fallback.
  it.each([
    ["this host's limits", false],
    ["the forced rlimit fallback", true],
  ] as const)("close kills everything and removes the state folder and cgroups (%s)", async (_, forced) => {
    const provider = forced
      ? new BwrapProvider({ cgroupRoot: join(root, "no-cgroups"), onWarning: () => {} })
      : p;
    const c = (await make(provider)) as BwrapSandbox;
    const cgroupMode = !forced && cgroupsWritable();
    expect(c.limitMode).toBe(cgroupMode ? "cgroup" : "rlimit");
    // A sleep of a length no other process uses, to find it on the host in either mode.
    const marker = String(7000 + n);
    await c.spawnBackground?.(["sleep", marker]);
    let procs: number[] = [];
    for (let i = 0; i < 100 && procs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      procs = pidsOf(["sleep", marker]);
    }
    expect(procs.length).toBeGreaterThan(0);
    const dirs = c.cgroupDirs;
    if (cgroupMode) {
      expect(dirs.length).toBeGreaterThanOrEqual(2);
      const inGroup = readFileSync(join(dirs[0] ?? "", "cgroup.procs"), "utf8")
        .trim()
        .split("\n")
        .map(Number);
      for (const pid of procs) expect(inGroup).toContain(pid);
    } else {
      expect(dirs).toEqual([]);
    }
    await c.close();
    expect(existsSync(c.spec.stateDir)).toBe(false);
    for (const d of dirs) expect(d).toMatch(new RegExp(`/longhaul-${process.pid}-${c.id}$`));
    for (const d of dirs) expect(existsSync(d)).toBe(false);
    for (const pid of procs) expect(isRunning(pid)).toBe(false);
    await expect(c.exec("true")).rejects.toThrow(/closed/);
  });
});

describe("bwrap provider: network", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((c) => c.end("hello from the host\n"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const a = server.address();
    port = typeof a === "object" && a !== null ? a.port : 0;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("shares the host network only when the task allows internet", async () => {
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;
    const online = await make(new BwrapProvider(), { allowInternet: true });
    expect((await online.exec(probe, { timeoutSec: 10 })).stdout).toBe("hello from the host\n");
    const offline = await make(new BwrapProvider());
    expect((await offline.exec(probe, { timeoutSec: 10 })).stdout).toBe("");
  });
});
