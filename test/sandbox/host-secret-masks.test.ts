import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
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
