import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { InfraError, UserError } from "../../core/errors.js";
import { BASE_IMAGE_TAG, ensureBaseImage, fromImages } from "./base-image.js";
import { docker, dockerUnavailable, lastLines } from "./docker-cli.js";
import { splitDockerfileTail } from "./dockerfile-tail.js";
import { envChecksum } from "./env-checksum.js";
import { inspectImage, inspectImageLabelled } from "./inspect.js";
import { listCachedImages } from "./rootfs-cache.js";
import { imageTailsEnabled, recordTailRecipe } from "./tail-rootfs.js";
import type { ImageRef } from "./types.js";

export const ENV_TAG_PREFIX = "longhaul-env";
export const CHECKSUM_LABEL = "longhaul.env-checksum";

export interface TaskImageOptions {
  /** For messages only. */
  taskName: string;
  /** The task's environment/ folder: the build context when it holds a Dockerfile and no docker_image is set. */
  envDir: string;
  /** task.toml's `[environment] docker_image`, or null. */
  dockerImage: string | null;
  buildTimeoutSec: number;
  /** Where `docker build` output goes (created with its parent folders; untouched on a cache hit). */
  logFile: string;
  onOutput?: (chunk: Buffer) => void;
}

export interface TaskImageResult {
  image: ImageRef;
  /** "built" when this call (or one it joined) ran `docker build`; "cached" when it reused a tag. */
  source: "built" | "cached" | "local" | "pulled" | "archive";
  seconds: number;
}

/** The image a task's trials run over, or null for a task that runs on the host's file system. */
export async function taskImage(o: TaskImageOptions): Promise<ImageRef | null> {
  return (await resolveTaskImage(o))?.image ?? null;
}

/** taskImage, telling also where the image came from and how long that took. */
export async function resolveTaskImage(o: TaskImageOptions): Promise<TaskImageResult | null> {
  const started = Date.now();
  // docker_image wins over a Dockerfile beside it, as in Harbor (the task's load warns of it).
  const name = o.dockerImage;
  if (name === null) {
    if (!existsSync(join(o.envDir, "Dockerfile"))) return null;
    const r = await dockerfileImage(o);
    return { ...r, seconds: (Date.now() - started) / 1000 };
  }
  const local = await inspectImage(name).catch(() => null);
  if (local !== null) return { image: local, source: "local", seconds: (Date.now() - started) / 1000 };
  // An image loaded from a `docker save`/OCI archive (`longhaul images load`) needs no daemon.
  const loaded = listCachedImages().find((c) => c.tag === name);
  if (loaded !== undefined) {
    const image = { id: loaded.id, tag: loaded.tag, config: loaded.config };
    return { image, source: "archive", seconds: (Date.now() - started) / 1000 };
  }
  await needDaemon(o.taskName);
  if (name === BASE_IMAGE_TAG) {
    return { image: await ensureBase(o), source: "built", seconds: (Date.now() - started) / 1000 };
  }
  const pull = await docker(["pull", name], { timeoutSec: o.buildTimeoutSec, onOutput: o.onOutput });
  const pulled = pull.exitCode === 0 ? await inspectImage(name) : null;
  if (pulled === null) {
    throw new UserError(
      `task ${o.taskName}: image ${name} is not in the local Docker daemon and could not be pulled ` +
        `(${lastLines(pull.stderr || pull.stdout, 1) || "no output"}); ` +
        `\`docker load\` it from an archive, build it, or make a Debian base with ` +
        `\`longhaul images bootstrap --tag ${name}\``,
    );
  }
  return { image: pulled, source: "pulled", seconds: (Date.now() - started) / 1000 };
}

/**
 * Builds in flight, by environment checksum: trials of one task (or tasks sharing an
 * environment) started together wait for one build instead of racing the daemon with copies.
 */
const inFlight = new Map<string, Promise<{ image: ImageRef; source: "built" | "cached" }>>();

async function dockerfileImage(
  o: TaskImageOptions,
): Promise<{ image: ImageRef; source: "built" | "cached" }> {
  const sum = await envChecksum(o.envDir);
  const pending = inFlight.get(sum);
  if (pending !== undefined) return pending;
  const p = buildOrReuse(o, sum).finally(() => inFlight.delete(sum));
  inFlight.set(sum, p);
  return p;
}

async function buildOrReuse(
  o: TaskImageOptions,
  sum: string,
): Promise<{ image: ImageRef; source: "built" | "cached" }> {
  const tag = `${ENV_TAG_PREFIX}:${sum.slice(0, 16)}`;
  const existing = await inspectImageLabelled(tag);
  // The label guards against a 16-hex prefix collision or a tag someone re-pointed by hand.
  if (existing !== null && existing.labels[CHECKSUM_LABEL] === sum) {
    return { image: existing.image, source: "cached" };
  }
  await needDaemon(o.taskName);
  // longhaul's own base image is made here, offline, rather than failing a pull no registry answers.
  const dockerfile = readFileSync(join(o.envDir, "Dockerfile"), "utf8");
  if (fromImages(dockerfile).includes(BASE_IMAGE_TAG) && (await inspectImage(BASE_IMAGE_TAG)) === null) {
    await ensureBase(o);
  }
  mkdirSync(dirname(o.logFile), { recursive: true });
  const log = createWriteStream(o.logFile);
  const opened = new Promise<void>((resolve, reject) => {
    log.once("open", () => resolve());
    log.once("error", reject);
  });
  await opened.catch((e: unknown) => {
    throw new InfraError(`cannot write the build log ${o.logFile}: ${(e as Error).message}`);
  });
  let r: Awaited<ReturnType<typeof docker>>;
  try {
    r = await docker(
      [
        "build",
        // A failed step's container would otherwise stay behind, one per failed build.
        "--force-rm",
        "--network",
        "host",
        "-t",
        tag,
        "--label",
        `${CHECKSUM_LABEL}=${sum}`,
        "-f",
        join(o.envDir, "Dockerfile"),
        o.envDir,
      ],
      {
        timeoutSec: o.buildTimeoutSec,
        maxOutputBytes: 256 * 1024,
        onOutput: (c) => {
          log.write(c);
          o.onOutput?.(c);
        },
      },
    );
  } finally {
    await new Promise<void>((resolve) => log.end(resolve));
  }
  if (r.timedOut) {
    throw new InfraError(
      `task ${o.taskName}: docker build timed out after ${o.buildTimeoutSec} s ` +
        `([environment] build_timeout_sec); build log: ${o.logFile}`,
    );
  }
  if (r.exitCode !== 0) {
    const out = `${r.stdout}\n${r.stderr}`.trim();
    throw new UserError(
      `task ${o.taskName}: docker build failed:\n${lastLines(out, 15)}\nbuild log: ${o.logFile}`,
    );
  }
  const built = await inspectImage(tag);
  if (built === null) throw new InfraError(`task ${o.taskName}: docker build did not leave ${tag} behind`);
  await recordHead(o, dockerfile, built);
  return { image: built, source: "built" };
}

/**
 * For a Dockerfile whose tail only adds files: builds its head (every step is one the build just
 * made, so all are cached) and records the recipe that lets the rootfs cache unpack this image
 * over the head's (tail-rootfs.ts). Best effort: without a recipe the image is unpacked whole.
 */
async function recordHead(o: TaskImageOptions, dockerfile: string, built: ImageRef): Promise<void> {
  const tail = imageTailsEnabled() ? splitDockerfileTail(dockerfile) : null;
  if (tail === null) return;
  const dir = mkdtempSync(join(tmpdir(), "longhaul-head-"));
  try {
    const file = join(dir, "Dockerfile");
    writeFileSync(file, tail.head);
    const r = await docker(["build", "--force-rm", "--network", "host", "-q", "-f", file, o.envDir], {
      timeoutSec: o.buildTimeoutSec,
    });
    const id = r.stdout.trim().split("\n").pop()?.trim() ?? "";
    if (r.exitCode === 0 && /^sha256:[0-9a-f]{64}$/.test(id) && id !== built.id) {
      recordTailRecipe(built.id, { head: id, paths: tail.paths });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Checked only on a cache miss: a hit must stay fast, and its inspect already proved a daemon. */
async function needDaemon(taskName: string): Promise<void> {
  const down = await dockerUnavailable();
  if (down !== null) throw new UserError(`task ${taskName} needs a container image: ${down}`);
}

function ensureBase(o: TaskImageOptions): Promise<ImageRef> {
  return ensureBaseImage({ onProgress: (line) => o.onOutput?.(Buffer.from(`${line}\n`)) });
}
