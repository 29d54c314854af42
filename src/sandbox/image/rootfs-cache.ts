import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { InfraError, UserError } from "../../core/errors.js";
import { readExtractedArchive, unpackLayers } from "./archive.js";
import { type CachedImage, cachedImage, imageCacheRoot, removeLeftovers, stageImage } from "./cache-dir.js";
import { dockerBin, lastLines } from "./docker-cli.js";
import { inspectImage } from "./inspect.js";
import { fillFromHead, readTailRecipe, tailTakes } from "./tail-rootfs.js";
import type { ImageRef } from "./types.js";

export {
  type CachedImage,
  cachedImage,
  imageCacheDir,
  imageCacheRoot,
  longhaulCacheDir,
} from "./cache-dir.js";

/** Every complete entry in the cache. */
export function listCachedImages(): CachedImage[] {
  const root = imageCacheRoot();
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => /^[0-9a-f]{64}$/.test(n))
    .map((n) => cachedImage(`sha256:${n}`))
    .filter((c): c is CachedImage => c !== null);
}

/** Removes every cached root file system and leftover temporary folder; returns what went. */
export function pruneImageCache(): string[] {
  const root = imageCacheRoot();
  if (!existsSync(root)) return [];
  const removed: string[] = [];
  for (const n of readdirSync(root)) {
    const p = join(root, n);
    // Renamed out first, so a concurrent reader sees the entry either whole or gone.
    const trash = join(root, `.trash-${process.pid}-${Math.random().toString(36).slice(2)}`);
    try {
      renameSync(p, trash);
    } catch {
      continue;
    }
    rmSync(trash, { recursive: true, force: true });
    removed.push(p);
  }
  return removed;
}

/** The host path of an image's root file system, exported from the daemon the first time. */
const exporting = new Map<string, Promise<string>>();

export function ensureRootfs(image: ImageRef): Promise<string> {
  const hit = cachedImage(image.id);
  if (hit !== null) {
    // Entries made before leftovers were removed kept the whole `docker save` archive beside the rootfs.
    if (existsSync(join(hit.dir, "archive"))) removeLeftovers(hit.dir);
    return Promise.resolve(join(hit.dir, "rootfs"));
  }
  let p = exporting.get(image.id);
  if (p === undefined) {
    p = exportRootfs(image).finally(() => exporting.delete(image.id));
    exporting.set(image.id, p);
  }
  return p;
}

/**
 * `docker save` rather than `docker create` + `docker export`: an export is a container's file
 * system, with the files docker's init layer adds (/dev/console, /etc/hosts, /etc/hostname,
 * /etc/resolv.conf, /etc/mtab, /.dockerenv), which would make a sandbox's folders differ from the
 * image's. A save is the image itself, and goes through the same layer code as an archive, so a
 * daemon export and a loaded archive of one image are byte-for-byte one cache entry.
 */
async function exportRootfs(image: ImageRef): Promise<string> {
  if ((await inspectImage(image.id)) === null) {
    throw new UserError(
      `image ${image.tag ?? image.id} (${image.id}) is neither in the image cache (${imageCacheRoot()}) ` +
        "nor in the local Docker daemon: build it, `docker load` it, or `longhaul images load` its archive",
    );
  }
  const overHead = await unpackOverHead(image).catch(() => null);
  if (overHead !== null) return overHead;
  return stageImage(image, "docker save", async (rootfs, staging) => {
    const archive = join(staging, "archive");
    mkdirSync(archive);
    await saveInto(image.id, archive);
    const { layers } = await readExtractedArchive(archive, image.id);
    await unpackLayers(archive, layers, rootfs, staging, `docker save ${image.tag ?? image.id}`);
  });
}

/**
 * The image unpacked over its head's cached rootfs (tail-rootfs.ts), or null when it has no
 * usable recipe; then, or when that fails, the whole image is saved and unpacked instead.
 */
async function unpackOverHead(image: ImageRef): Promise<string | null> {
  const recipe = readTailRecipe(image.id);
  if (recipe === null) return null;
  // The head's cached rootfs serves even when the daemon no longer has the head image.
  const cached = cachedImage(recipe.head);
  let headRootfs: string;
  if (cached !== null) headRootfs = join(cached.dir, "rootfs");
  else {
    const head = await inspectImage(recipe.head);
    if (head === null) return null;
    headRootfs = await ensureRootfs(head);
  }
  const takes = tailTakes(headRootfs, recipe.paths);
  if (takes === null) return null;
  return stageImage(image, `docker cp over ${recipe.head}`, (rootfs, staging) =>
    fillFromHead(image.id, headRootfs, takes, rootfs, staging),
  );
}

function saveInto(id: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const exp = spawn(dockerBin(), ["save", id], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const tar = spawn("tar", ["-x", "-C", dir, "-f", "-"], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let errs = "";
    exp.stderr.on("data", (c: Buffer) => {
      errs += c.toString();
    });
    tar.stderr.on("data", (c: Buffer) => {
      errs += c.toString();
    });
    exp.stdout.pipe(tar.stdin);
    tar.stdin.on("error", () => undefined);
    let expCode: number | null = null;
    exp.on("error", (e) => reject(new InfraError(`docker save: ${e.message}`)));
    tar.on("error", (e) => reject(new InfraError(`tar: ${e.message}`)));
    exp.on("close", (code) => {
      expCode = code;
    });
    tar.on("close", (code) => {
      const done = (): void => {
        if (expCode === 0 && code === 0) resolve();
        else reject(new InfraError(`docker save | tar -x failed: ${lastLines(errs, 5)}`));
      };
      if (exp.exitCode !== null || exp.signalCode !== null) done();
      else exp.once("close", done);
    });
  });
}
