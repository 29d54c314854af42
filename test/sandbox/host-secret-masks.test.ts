import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BwrapProvider } from "../../src/sandbox/bwrap-provider.js";
import { maskArgs } from "../../src/sandbox/host-secrets.js";

// The unreadable-path scan is cached per process; a path deleted after it has no mount point
// left under the read-only system binds, and covering it would stop every later sandbox.
const dir = mkdtempSync(join(tmpdir(), "lh-masks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("host secret masks", () => {
  it("cover the paths that still exist and skip the ones deleted since the scan", () => {
    const kept = join(dir, "key.pem");
    const gone = join(dir, "rotated.pem");
    writeFileSync(kept, "secret");
    writeFileSync(gone, "secret");
    const scan = { files: [kept, gone], dirs: [dir, join(dir, "gone-dir")] };
    rmSync(gone);
    expect(maskArgs(scan)).toEqual(["--ro-bind-try", "/dev/null", kept, "--perms", "0000", "--tmpfs", dir]);
  });
});

describe("host secret masks in a sandbox that outlives them", () => {
  it("keeps running commands after a masked host file is deleted", async () => {
    // Planted before this process's first scan, so the scan lists it as a root-only file.
    const planted = `/etc/longhaul-mask-gone-${process.pid}`;
    writeFileSync(planted, "secret", { mode: 0o600 });
    const provider = new BwrapProvider();
    const s = await provider.create({
      environmentDir: null,
      workdir: "/app",
      memoryMb: 256,
      cpus: 1,
      pidsMax: 128,
      allowInternet: false,
      stateDir: join(dir, "state"),
    });
    try {
      const before = await s.exec(`cat ${planted} 2>&1 || echo refused`);
      expect(before.stdout).not.toContain("secret");
      rmSync(planted);
      const after = await s.exec("echo ran");
      expect(after).toMatchObject({ exitCode: 0, stdout: "ran\n" });
    } finally {
      rmSync(planted, { force: true });
      await s.close();
    }
  });
});
