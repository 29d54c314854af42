import { spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  type Stats,
  writeFileSync,
} from "node:fs";
import { dirname, join, posix } from "node:path";
import { z } from "zod";
import { InfraError } from "../../core/errors.js";
import { hexOf, longhaulCacheDir } from "./cache-dir.js";
import { docker, dockerBin, lastLines } from "./docker-cli.js";

/**
 * An image built from a Dockerfile whose tail only adds files (dockerfile-tail.ts) can be unpacked
 * from its head's root file system: a hard-linked copy of the head's cached rootfs, with the paths
 * the tail writes taken from the image itself (`docker cp` out of a container that never runs).
 * That costs the size of those paths instead of a `docker save` of the whole image, and the copy
 * shares the head's files on disk. Cached root file systems are never written (sandboxes put an
 * overlay or a copy over them), so the shared files stay the head's.
 *
 * The recipe (head image id and tail paths) is recorded when the image is built, in
 * `<cache>/image-tails/<hex of image id>.json`; an image without one is unpacked whole as before.
 */
/** `LONGHAUL_IMAGE_TAILS=off`: no recipe is recorded or used; every image is unpacked whole. */
export function imageTailsEnabled(): boolean {
  return process.env.LONGHAUL_IMAGE_TAILS !== "off";
}

const recipeSchema = z.object({
  head: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  paths: z.array(z.string().startsWith("/")),
});
export type TailRecipe = z.infer<typeof recipeSchema>;

function recipeFile(imageId: string): string {
  return join(longhaulCacheDir(), "image-tails", `${hexOf(imageId)}.json`);
}

export function recordTailRecipe(imageId: string, recipe: TailRecipe): void {
  const file = recipeFile(imageId);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(recipe)}\n`);
}

/** The recorded recipe, or null (none, or unreadable: the image is then unpacked whole). */
export function readTailRecipe(imageId: string): TailRecipe | null {
  const file = recipeFile(imageId);
  if (!imageTailsEnabled() || !existsSync(file)) return null;
  try {
    return recipeSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return null;
  }
}

/** Where docker itself puts files into a container (its init layer): never taken from one. */
const DOCKER_OWNED = ["/etc", "/dev", "/proc", "/sys", "/.dockerenv"];

/**
 * The paths to take from the image over the head's rootfs: for each tail path, its highest
 * ancestor the head does not have (so folders the tail made come with their owners and modes),
 * else the path itself; none inside another. Null when the tail's effect is not confined to them:
 * a path through a symbolic link of the head, or one docker writes into containers itself.
 */
export function tailTakes(headRootfs: string, paths: readonly string[]): string[] | null {
  const takes: string[] = [];
  for (const p of paths) {
    const parts = posix.normalize(p).split("/").filter(Boolean);
    if (parts.length === 0) return null;
    let take: string | null = null;
    for (let i = 1; i <= parts.length; i++) {
      const sub = `/${parts.slice(0, i).join("/")}`;
      const st = lstatOrNull(join(headRootfs, sub));
      if (st === null) {
        take = sub;
        break;
      }
      if (st.isSymbolicLink()) return null;
      if (!st.isDirectory() && i < parts.length) return null;
    }
    take ??= `/${parts.join("/")}`;
    if (DOCKER_OWNED.some((d) => take === d || take?.startsWith(`${d}/`))) return null;
    takes.push(take);
  }
  const sorted = [...new Set(takes)].sort();
  return sorted.filter((t) => !sorted.some((o) => o !== t && t.startsWith(`${o}/`)));
}

/**
 * Fills `rootfs` (an empty folder in the cache's staging area, on the head's file system) with
 * the head's files hard-linked, then replaces each of `takes` with the image's own copy.
 */
export async function fillFromHead(
  imageId: string,
  headRootfs: string,
  takes: readonly string[],
  rootfs: string,
  staging: string,
): Promise<void> {
  await run("cp", ["-a", "-l", `${headRootfs}/.`, rootfs], "hard-linking the head's root file system");
  const made = await docker(["create", "--network", "none", imageId, "/"], { timeoutSec: 120 });
  const container = made.stdout.trim();
  if (made.exitCode !== 0 || container === "") {
    throw new InfraError(`docker create ${imageId}: ${lastLines(made.stderr, 3) || "no container"}`);
  }
  try {
    for (const [i, take] of takes.entries()) {
      const archive = join(staging, `tail-${i}.tar`);
      const fd = openSync(archive, "w");
      try {
        await run(dockerBin(), ["cp", `${container}:${take}`, "-"], `docker cp ${take}`, fd);
      } finally {
        closeSync(fd);
      }
      // docker cp names entries after the path's last part; anything else is refused.
      const names = (await run("tar", ["-tf", archive], `listing ${take}`)).split("\n").filter(Boolean);
      const base = posix.basename(take);
      const bad = names.find(
        (n) => (n !== base && n !== `${base}/` && !n.startsWith(`${base}/`)) || n.split("/").includes(".."),
      );
      if (bad !== undefined) throw new InfraError(`docker cp ${take}: unexpected entry ${bad}`);
      rmSync(join(rootfs, take), { recursive: true, force: true });
      await run(
        "tar",
        ["-x", "--numeric-owner", "-p", "-C", join(rootfs, posix.dirname(take)), "-f", archive],
        `unpacking ${take}`,
      );
      rmSync(archive, { force: true });
    }
  } finally {
    await docker(["rm", "-f", container], { timeoutSec: 120 }).catch(() => undefined);
  }
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** Runs a command to its end; its output is returned, or written to `stdoutFd` when given. */
function run(cmd: string, args: readonly string[], what: string, stdoutFd?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", stdoutFd ?? "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.on("error", (e) => reject(new InfraError(`${what}: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new InfraError(`${what}: ${lastLines(err, 3) || `exit ${code}`}`));
    });
  });
}
