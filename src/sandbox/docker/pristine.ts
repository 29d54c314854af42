import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { InfraError } from "../../core/errors.js";
import { lastLines } from "../image/docker-cli.js";
import { removeTree } from "../remove-tree.js";
import { collect, collectOk, dockerBin } from "./proc.js";

/**
 * Folders as an image has them (its /root, /tmp, workdir), as `docker cp` tar streams whose one
 * top entry is the folder's base name; null when the image has no such folder. They seed a new
 * sandbox's host-kept folders and give an exec its fresh folders. Read through a throwaway
 * container that never runs (the sandbox's own container shows its binds there, not the image),
 * and cached by image id for the life of the process.
 */
const cache = new Map<string, Buffer | null>();
/** Folders bigger than this are read again each time rather than kept in memory. */
const CACHE_MAX_BYTES = 64 << 20;

export async function pristineTars(
  image: string,
  paths: readonly string[],
  labels: readonly string[],
): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  const missing = paths.filter((p) => {
    const hit = cache.get(`${image} ${p}`);
    if (hit !== undefined) out.set(p, hit);
    return hit === undefined;
  });
  if (missing.length === 0) return out;
  const name = `lh-pristine-${randomBytes(5).toString("hex")}`;
  await collectOk("docker create (image folders)", [
    dockerBin(),
    "create",
    "--name",
    name,
    ...labels.flatMap((l) => ["--label", l]),
    "--network",
    "none",
    "--entrypoint",
    "/nonexistent",
    image,
  ]);
  try {
    for (const p of missing) {
      const r = await collect([dockerBin(), "cp", `${name}:${p}`, "-"]);
      let tar: Buffer | null = r.stdout;
      if (r.code !== 0) {
        if (!/Could not find|No such container:path|no such file/i.test(r.stderr)) {
          throw new InfraError(`docker cp ${p} out of the image failed: ${lastLines(r.stderr, 3)}`);
        }
        tar = null;
      }
      if (tar === null || tar.length <= CACHE_MAX_BYTES) cache.set(`${image} ${p}`, tar);
      out.set(p, tar);
    }
  } finally {
    await collect([dockerBin(), "rm", "-f", name]);
  }
  return out;
}

/**
 * Extracts a pristine tar so that its top folder becomes `dest` (which must not exist), keeping
 * owners and modes. Returns false when the tar's top entry is not a folder (nothing made).
 */
export async function extractFolder(tar: Buffer, dest: string, scratch: string): Promise<boolean> {
  const tmp = join(scratch, `x-${randomBytes(4).toString("hex")}`);
  mkdirSync(tmp, { recursive: true });
  try {
    // Run as root this keeps owners (tar's default for root); links stay links (GNU tar delays
    // links that point out of the tree until the end, so nothing is written through them).
    await collectOk("tar -x (image folder)", ["tar", "-x", "--numeric-owner", "-C", tmp, "-f", "-"], tar);
    const [top] = readdirSync(tmp, { withFileTypes: true });
    if (top === undefined || !top.isDirectory()) return false;
    renameSync(join(tmp, top.name), dest);
    return true;
  } finally {
    removeTree(tmp);
  }
}
