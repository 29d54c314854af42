import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/index.js";
import { loadImageArchive } from "../../sandbox/image/archive.js";
import { BASE_IMAGE_PACKAGES, BASE_IMAGE_TAG } from "../../sandbox/image/base-image.js";
import { bootstrapImage } from "../../sandbox/image/bootstrap.js";
import { resolveTaskImage } from "../../sandbox/image/build-image.js";
import { inspectImage } from "../../sandbox/image/inspect.js";
import {
  cachedImage,
  ensureRootfs,
  listCachedImages,
  longhaulCacheDir,
  pruneImageCache,
} from "../../sandbox/image/rootfs-cache.js";
import type { ImageRef } from "../../sandbox/image/types.js";
import { loadTasks, type Task } from "../../task/index.js";
import { writeJson } from "../options.js";

/** Progress goes to stderr; stdout carries only results, so they can be piped. */
const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

export function registerImagesCommand(program: Command): void {
  const images = program.command("images").description("container images: build, bootstrap, cache, load");
  images
    .command("bootstrap")
    .description("make a Debian base image with debootstrap and import it into Docker (no registry needed)")
    .option("--tag <name>", "tag to import it as", BASE_IMAGE_TAG)
    .option("--suite <s>", "Debian suite", "bookworm")
    .option("--mirror <url>", "package mirror", "http://deb.debian.org/debian")
    .option("--include <pkgs>", "extra packages, comma-separated", BASE_IMAGE_PACKAGES.join(","))
    .option("--if-missing", "do nothing when the tag already exists")
    .action(
      async (o: { tag: string; suite: string; mirror: string; include?: string; ifMissing?: boolean }) => {
        const have = o.ifMissing === true ? await inspectImage(o.tag) : null;
        if (have !== null) {
          progress(`${o.tag} exists`);
          process.stdout.write(`${have.tag ?? o.tag}\t${have.id}\n`);
          return;
        }
        progress(`debootstrap ${o.suite} from ${o.mirror}…`);
        const started = Date.now();
        const ref = await bootstrapImage({
          tag: o.tag,
          suite: o.suite,
          mirror: o.mirror,
          include: o.include?.split(",").filter(Boolean) ?? [],
          onOutput: (c) => process.stderr.write(c),
        });
        progress(`done in ${seconds(started)}`);
        process.stdout.write(`${ref.tag ?? o.tag}\t${ref.id}\n`);
      },
    );
  images
    .command("build")
    .description("build (or reuse) the image of every image task in the given task or dataset folders")
    .argument("<paths...>", "task or dataset folders")
    .option("-v, --verbose", "stream docker build output to stderr")
    .option("--json", "print the results as JSON")
    .action(async (paths: string[], o: { verbose?: boolean; json?: boolean }) => {
      const tasks = (await loadTasks(paths.map((p) => resolve(p)))).filter(isImageTask);
      if (tasks.length === 0) throw new UserError(`no image tasks in ${paths.join(", ")}`);
      const rows: { task: string; tag: string | null; id: string; source: string; seconds: number }[] = [];
      for (const t of tasks) {
        progress(`image for ${t.name}…`);
        const r = await resolveTaskImage({
          taskName: t.name,
          envDir: t.paths.environment,
          dockerImage: t.config.environment.docker_image,
          buildTimeoutSec: t.config.environment.build_timeout_sec,
          logFile: join(longhaulCacheDir(), "build-logs", `${t.name}.log`),
          onOutput: o.verbose ? (c) => process.stderr.write(c) : undefined,
        });
        if (r === null) continue;
        const row = {
          task: t.name,
          tag: r.image.tag,
          id: r.image.id,
          source: r.source,
          seconds: Math.round(r.seconds * 10) / 10,
        };
        rows.push(row);
        if (!o.json) {
          const how = r.source === "built" || r.source === "pulled" ? `${row.seconds}s` : r.source;
          process.stdout.write(`${row.task}\t${row.tag ?? "-"}\t${row.id}\t${how}\n`);
        }
      }
      if (o.json) writeJson(rows);
    });
  images
    .command("export")
    .description("unpack an image's root file system into the cache (once) and print its path")
    .argument("<image>", "tag or id in the local Docker daemon, or the id of a cached image")
    .action(async (name: string) => {
      const ref = await imageByName(name);
      const started = Date.now();
      const path = await ensureRootfs(ref);
      progress(`${ref.tag ?? ref.id}: ${seconds(started)}`);
      process.stdout.write(`${path}\n`);
    });
  images
    .command("load")
    .description("load a docker save archive or an OCI image layout into the cache, with no daemon")
    .argument("<archive>", "a .tar (docker save or OCI), or an OCI layout folder")
    .action(async (archive: string) => {
      const started = Date.now();
      const ref = await loadImageArchive(archive);
      progress(`${ref.tag ?? ref.id}: loaded in ${seconds(started)}`);
      process.stdout.write(`${ref.id}\n`);
    });
  images
    .command("ls")
    .description("list the cached root file systems")
    .option("--json", "print them as JSON")
    .action((o: { json?: boolean }) => {
      const all = listCachedImages();
      if (o.json) {
        writeJson(
          all.map(({ id, tag, bytes, source, created, dir }) => ({ id, tag, bytes, source, created, dir })),
        );
        return;
      }
      for (const c of all) process.stdout.write(`${c.id}\t${c.tag ?? "-"}\t${megabytes(c.bytes)}\n`);
      if (all.length === 0) progress("no cached images");
    });
  images
    .command("prune")
    .description("remove every cached root file system (not while trials run: their sandboxes mount them)")
    .action(() => {
      const removed = pruneImageCache();
      for (const p of removed) process.stdout.write(`${p}\n`);
      progress(`removed ${removed.length}`);
    });
}

/** An image task: its environment/ is a Docker build context, or it names an image. */
export function isImageTask(t: Task): boolean {
  return t.config.environment.docker_image !== null || existsDockerfile(t);
}

function existsDockerfile(t: Task): boolean {
  try {
    return statSync(join(t.paths.environment, "Dockerfile")).isFile();
  } catch {
    return false;
  }
}

async function imageByName(name: string): Promise<ImageRef> {
  const hex = /^(sha256:)?([0-9a-f]{64})$/.exec(name)?.[2];
  const cached = hex === undefined ? null : cachedImage(`sha256:${hex}`);
  if (cached !== null) return { id: cached.id, tag: cached.tag, config: cached.config };
  const ref = await inspectImage(name);
  if (ref === null) {
    throw new UserError(`no image ${name} in the local Docker daemon or the image cache`);
  }
  return ref;
}

function seconds(started: number): string {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
