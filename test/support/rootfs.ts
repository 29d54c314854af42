import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageRef } from "../../src/sandbox/image/types.js";

/**
 * Stand-in for the image rootfs cache in tests: `docker create` + `docker export | tar -x` into a
 * folder per image id, made once (atomically, so parallel test files share it) and kept.
 */
export const TEST_ROOTFS_DIR = join(tmpdir(), "longhaul-test-rootfs");

export async function testRootfsFor(image: ImageRef): Promise<string> {
  const hex = image.id.replace(/^sha256:/, "");
  const dest = join(TEST_ROOTFS_DIR, hex, "rootfs");
  if (existsSync(dest)) return dest;
  mkdirSync(join(TEST_ROOTFS_DIR, hex), { recursive: true });
  const work = mkdtempSync(join(TEST_ROOTFS_DIR, hex, "part-"));
  const created = spawnSync("docker", ["create", image.id, "true"], { encoding: "utf8" });
  if (created.status !== 0) throw new Error(`docker create ${image.id}: ${created.stderr}`);
  const cid = created.stdout.trim();
  try {
    const r = spawnSync(
      "sh",
      ["-c", `docker export ${cid} | tar -x -C '${work}' -f - --exclude=./dev --exclude=dev`],
      {
        encoding: "utf8",
        maxBuffer: 64 << 20,
      },
    );
    if (r.status !== 0) throw new Error(`docker export ${image.id}: ${r.stderr}`);
  } finally {
    spawnSync("docker", ["rm", "-f", cid]);
  }
  try {
    renameSync(work, dest);
  } catch {
    // Another worker got there first.
    rmSync(work, { recursive: true, force: true });
  }
  return dest;
}
