import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BwrapProvider, sweepStaleSandboxes } from "../../src/sandbox/bwrap-provider.js";
import { removeTree } from "../../src/sandbox/remove-tree.js";
import { imagePathOf, isMountPoint, mountStorage } from "../../src/sandbox/storage.js";
import { writeRecord } from "../../src/sandbox/sweep.js";
import type { SandboxSpec } from "../../src/sandbox/types.js";

let root: string;
let n = 0;
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  environmentDir: null,
  workdir: "/app",
  memoryMb: 256,
  cpus: 1,
  pidsMax: 128,
  allowInternet: false,
  stateDir: join(root, `state-${++n}`),
  ...over,
});
// A pid above pid_max can never belong to a live process.
const deadPid = (): number => Number(readFileSync("/proc/sys/kernel/pid_max", "utf8")) + 1;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "longhaul-storage-"));
});
afterAll(() => removeTree(root));

describe("bwrap provider: storage quota and stale state", () => {
  it("mounts a quota image at the state folder and unmounts and deletes it on close", async () => {
    const registryDir = join(root, "registry-a");
    const p = new BwrapProvider({ maskHostSecrets: false, registryDir });
    const s = await p.create(spec({ storageMb: 32 }));
    expect(isMountPoint(s.spec.stateDir)).toBe(true);
    expect(existsSync(imagePathOf(s.spec.stateDir))).toBe(true);
    expect(readdirSync(registryDir)).toHaveLength(1);
    const r = await s.exec("head -c 60000000 /dev/zero > /app/big; echo rc=$?", { timeoutSec: 60 });
    expect(r.stdout).toBe("rc=1\n");
    expect(r.stderr).toMatch(/No space left/);
    await s.close();
    expect(isMountPoint(s.spec.stateDir)).toBe(false);
    expect(existsSync(s.spec.stateDir)).toBe(false);
    expect(existsSync(imagePathOf(s.spec.stateDir))).toBe(false);
    expect(readdirSync(registryDir)).toHaveLength(0);
  });

  it("without a mountable image, a watchdog kills the exec that goes over the quota", async () => {
    const warnings: string[] = [];
    const p = new BwrapProvider({
      maskHostSecrets: false,
      storage: "watch",
      storageCheckMs: 100,
      registryDir: join(root, "registry-b"),
      onWarning: (w) => warnings.push(w),
    });
    const s = await p.create(spec({ storageMb: 16 }));
    expect(isMountPoint(s.spec.stateDir)).toBe(false);
    const r = await s.exec("while :; do head -c 1000000 /dev/zero >> /app/f$((i++ / 8)); sleep 0.01; done", {
      timeoutSec: 60,
    });
    expect(r).toMatchObject({ exitCode: null, timedOut: false });
    expect(warnings.join("\n")).toMatch(/over its 16 MB disk quota/);
    await s.close();
  });

  it("without a mountable image, files deeper than the host can name count against the quota", async () => {
    const warnings: string[] = [];
    const p = new BwrapProvider({
      maskHostSecrets: false,
      storage: "watch",
      storageCheckMs: 100,
      registryDir: join(root, "registry-deep"),
      onWarning: (w) => warnings.push(w),
    });
    const s = await p.create(spec({ storageMb: 16 }));
    // 25 levels of 200-byte names, made by relative names: past PATH_MAX from the host, where
    // the usage walk, going by path, skipped them; 24 MB written there against 16 MB.
    const d = "d".repeat(200);
    const r = await s.exec(
      `for i in $(seq 25); do mkdir ${d} && cd ${d}; done; for i in $(seq 24); do head -c 1000000 /dev/zero > f$i; sleep 0.05; done; sleep 30`,
      { timeoutSec: 20 },
    );
    expect(r).toMatchObject({ exitCode: null, timedOut: false });
    expect(warnings.join("\n")).toMatch(/over its 16 MB disk quota/);
    // Node's rm goes by path and threw ENAMETOOLONG here; the state folder must still go.
    await s.close();
    expect(existsSync(s.spec.stateDir)).toBe(false);
  }, 60_000);

  it("sweepStaleSandboxes removes what dead owners left: processes, mounts, folders, records", async () => {
    const registryDir = join(root, "registry-c");
    const tmpRoot = join(root, "tmp-c");
    mkdirSync(tmpRoot);
    const dead = deadPid();
    // A recorded sandbox with a mounted image and a process of its uid still running.
    const mounted = join(root, `longhaul-${dead}-trial`);
    expect(await mountStorage(mounted, 8)).toBeNull();
    const uid = 1_900_000_000 + 4242;
    const orphan = spawn("setpriv", [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "sleep", "300"], {
      stdio: "ignore",
    });
    const exited = new Promise((r) => orphan.on("exit", r));
    writeRecord(registryDir, "sbx-dead", { ownerPid: dead, stateDir: mounted, uid });
    // A runner state folder of a dead process, and one of this live process.
    const stale = join(tmpRoot, `longhaul-${dead}-t1-abc`);
    const live = join(tmpRoot, `longhaul-${process.pid}-t2-abc`);
    const other = join(tmpRoot, "longhaul-bench-xyz");
    for (const d of [stale, live, other]) mkdirSync(d);
    writeFileSync(join(stale, "f"), "x");
    writeRecord(registryDir, "sbx-live", { ownerPid: process.pid, stateDir: live, uid: null });
    await new Promise((r) => setTimeout(r, 100));
    const removed = await sweepStaleSandboxes({ registryDir, tmpRoot, cgroupRoot: null });
    expect(removed).toEqual(expect.arrayContaining([mounted, stale]));
    await expect(exited).resolves.toBeDefined();
    expect(isMountPoint(mounted)).toBe(false);
    for (const p of [mounted, imagePathOf(mounted), stale]) expect(existsSync(p)).toBe(false);
    for (const p of [live, other]) expect(existsSync(p)).toBe(true);
    expect(readdirSync(registryDir)).toEqual([`${process.pid}-sbx-live.json`]);
  });
});
