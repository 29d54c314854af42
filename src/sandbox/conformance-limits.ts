import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import type { Sandbox, SandboxSpec } from "./types.js";

/**
 * The resource limits of the conformance suite: processes, memory (memfds included) and storage,
 * each checked with small values (pidsMax 64, memoryMb 128, storageMb 64) on a sandbox of its own.
 */
export function describeLimits(make: (over?: Partial<SandboxSpec>) => Promise<Sandbox>): void {
  it("contains a fork bomb and a memory bomb", async () => {
    const s = await make({ pidsMax: 64, memoryMb: 128 });
    const forks = [
      "import os, time",
      "n = 0",
      "for i in range(300):",
      "    try:",
      "        pid = os.fork()",
      "    except OSError:",
      "        break",
      "    if pid == 0:",
      "        time.sleep(60)",
      "        os._exit(0)",
      "    n += 1",
      "print(n)",
    ].join("\n");
    const r = await s.exec(["python3", "-c", forks], { timeoutSec: 30 });
    expect(r.timedOut).toBe(false);
    const n = Number(r.stdout.trim());
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(64);
    expect(spawnSync("true").status).toBe(0);
    const mem = await s.exec(["python3", "-c", "b = b'x' * (512 * 1024 * 1024); print('survived', len(b))"], {
      timeoutSec: 30,
    });
    expect(mem.stdout).not.toContain("survived");
    expect(mem.exitCode).not.toBe(0);
    expect((await s.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("counts memory held in memfds toward memoryMb", async () => {
    // Pages of a memfd (memfd_create) held only by a descriptor are no process's resident
    // memory; the sandbox's limit must still cover them (16 × 32 MB against 128 MB here).
    const s = await make({ memoryMb: 128 });
    const hold = [
      "import os, time",
      "fds = []",
      "for i in range(16):",
      "    fd = os.memfd_create('m%d' % i)",
      "    os.posix_fallocate(fd, 0, 32 * 1024 * 1024)",
      "    fds.append(fd)",
      "time.sleep(2)",
      "print('survived', len(fds))",
    ].join("\n");
    const r = await s.exec(["python3", "-c", hold], { timeoutSec: 30 });
    expect(r.timedOut).toBe(false);
    expect(r.stdout).not.toContain("survived");
    expect(r.exitCode).not.toBe(0);
    expect((await s.exec("echo alive")).stdout).toBe("alive\n");
    // A memfd both held and mapped (its pages resident) counts once: 64 MB stays within 128.
    const mapped = [
      "import mmap, os, time",
      "fd = os.memfd_create('m')",
      "os.ftruncate(fd, 64 * 1024 * 1024)",
      "m = mmap.mmap(fd, 64 * 1024 * 1024)",
      "for i in range(0, len(m), 4096):",
      "    m[i] = 1",
      "time.sleep(1)",
      "print('kept', sum(m[i] for i in range(0, len(m), 4096)))",
    ].join("\n");
    const k = await s.exec(["python3", "-c", mapped], { timeoutSec: 30 });
    expect(k.stdout).toBe(`kept ${(64 * 1024 * 1024) / 4096}\n`);
  });

  it("contains a disk bomb and an inode flood within storageMb", async () => {
    const s = await make({ storageMb: 64 });
    const bomb = await s.exec("dd if=/dev/zero of=/app/f bs=1M count=400 2>&1; sync", { timeoutSec: 60 });
    expect(bomb.timedOut).toBe(false);
    const usedMb = Number((await s.exec("du -sm /app | cut -f1")).stdout.trim());
    expect(usedMb).toBeGreaterThan(0);
    expect(usedMb).toBeLessThanOrEqual(80);
    expect(bomb.exitCode === null || /No space left|File too large/.test(bomb.stdout)).toBe(true);
    await s.exec("rm -f /app/f");
    const flood = [
      "import os",
      "n = 0",
      "try:",
      "    for i in range(200000):",
      "        open(f'/tmp/f{i}', 'w').close(); n += 1",
      "except OSError as e:",
      "    print('stopped', e.errno)",
      "print(n)",
    ].join("\n");
    const r = await s.exec(["python3", "-c", flood], { timeoutSec: 60 });
    expect(r.timedOut).toBe(false);
    const made = Number((await s.exec("ls /tmp | wc -l")).stdout.trim());
    expect(made).toBeLessThan(200000);
    await s.exec("rm -rf /tmp/f*");
    expect((await s.exec("echo ok > /app/small && cat /app/small")).stdout).toBe("ok\n");
  });
}
