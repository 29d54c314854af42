import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { InfraError, UserError } from "../../core/errors.js";
import type { ImageRef } from "./types.js";

/**
 * Root file systems of images, unpacked once per image id for sandboxes that mount them
 * (read-only, under an overlay). Layout, under imageCacheRoot():
 *   <hex of id>/rootfs/       the image's files, owners and modes as in the image
 *   <hex of id>/config.json   its ImageConfig (workdir, env, user)
 *   <hex of id>/image.json    id, tag, size, where it came from
 *   <hex of id>/.complete     written last, before the folder is renamed into place
 * An entry is only ever made whole in a temporary folder beside it and renamed in, so a reader
 * never sees half an image and two processes racing on one image both end with a good one.
 */
export function imageCacheRoot(): string {
  return join(longhaulCacheDir(), "images");
}

/** $LONGHAUL_CACHE_DIR, else ~/.cache/longhaul. */
export function longhaulCacheDir(): string {
  return process.env.LONGHAUL_CACHE_DIR || join(homedir(), ".cache", "longhaul");
}

export function imageCacheDir(id: string): string {
  return join(imageCacheRoot(), hexOf(id));
}

const COMPLETE = ".complete";

const metaSchema = z.object({
  id: z.string(),
  tag: z.string().nullable(),
  config: z.object({
    workdir: z.string().nullable(),
    env: z.record(z.string(), z.string()),
    user: z.string().nullable(),
  }),
  bytes: z.number(),
  source: z.string(),
  created: z.string(),
});
export type CachedImage = z.infer<typeof metaSchema> & { dir: string };

/** The cached entry for an id, or null when none is complete. */
export function cachedImage(id: string): CachedImage | null {
  const dir = imageCacheDir(id);
  if (!existsSync(join(dir, COMPLETE))) return null;
  try {
    return { ...metaSchema.parse(JSON.parse(readFileSync(join(dir, "image.json"), "utf8"))), dir };
  } catch {
    return null;
  }
}

/**
 * Fills a temporary folder beside the entry through `fill(rootfsDir)`, writes the metadata and
 * renames it into place. Returns the rootfs path. Shared with archive loading.
 */
export async function stageImage(
  image: ImageRef,
  source: string,
  fill: (rootfs: string, staging: string) => Promise<void>,
): Promise<string> {
  const final = imageCacheDir(image.id);
  const root = imageCacheRoot();
  mkdirSync(root, { recursive: true });
  // mkdtemp: two stagings of one image in this process (trials side by side) get folders of their own.
  const tmp = mkdtempSync(join(root, `.tmp-${hexOf(image.id).slice(0, 16)}-${process.pid}-`));
  mkdirSync(join(tmp, "rootfs"), { recursive: true });
  try {
    await fill(join(tmp, "rootfs"), tmp);
    // What filling left beside the rootfs (a saved archive, its layers) is not part of the entry.
    removeLeftovers(tmp);
    const meta = {
      id: image.id,
      tag: image.tag,
      config: image.config,
      bytes: await diskUsage(join(tmp, "rootfs")),
      source,
      created: new Date().toISOString(),
    };
    writeFileSync(join(tmp, "config.json"), `${JSON.stringify(image.config, null, 2)}\n`);
    writeFileSync(join(tmp, "image.json"), `${JSON.stringify(meta, null, 2)}\n`);
    writeFileSync(join(tmp, COMPLETE), "");
    try {
      renameSync(tmp, final);
    } catch (e) {
      // Another process finished first (the target exists, not empty): keep theirs.
      if (cachedImage(image.id) === null)
        throw new InfraError(`cannot place ${final}: ${(e as Error).message}`);
    }
    return join(final, "rootfs");
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Removes everything in an entry's folder but its rootfs and metadata files. */
export function removeLeftovers(dir: string): void {
  for (const n of readdirSync(dir)) {
    if (!ENTRY_FILES.has(n)) rmSync(join(dir, n), { recursive: true, force: true });
  }
}
const ENTRY_FILES = new Set(["rootfs", "config.json", "image.json", COMPLETE]);

export function diskUsage(path: string): Promise<number> {
  return new Promise((resolve) => {
    const du = spawn("du", ["-sxb", path], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    du.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    du.on("error", () => resolve(0));
    du.on("close", () => resolve(Number.parseInt(out, 10) || 0));
  });
}

export function hexOf(id: string): string {
  const m = /^sha256:([0-9a-f]{64})$/.exec(id);
  if (m === null) throw new UserError(`not an image id (sha256:<64 hex>): ${id}`);
  return m[1] as string;
}
