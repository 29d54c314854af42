import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bootstrapImage } from "./bootstrap.js";
import { inspectImage } from "./inspect.js";
import type { ImageRef } from "./types.js";

/**
 * longhaul's own Debian base image, made offline with debootstrap (no registry needed): the
 * bundled tasks build FROM it, and the docker provider runs host tasks over it. Its packages are
 * what the grader kit, the bundled tasks and the terminal agents need inside a task image.
 */
export const BASE_IMAGE_TAG = "longhaul-base:bookworm";
export const BASE_IMAGE_PACKAGES = ["python3", "tzdata", "bubblewrap", "tmux"] as const;

export interface EnsureBaseImageOptions {
  tag?: string;
  include?: readonly string[];
  /** Progress lines; debootstrap's own output is not streamed. */
  onProgress?: (line: string) => void;
}

const pending = new Map<string, Promise<ImageRef>>();

/**
 * The base image, bootstrapped the first time a machine needs it (about a minute and a half)
 * and reused after. Built at most once even when several processes ask at once: the first takes
 * a lock and builds, the others poll until the tag exists or the lock is given up.
 */
export function ensureBaseImage(o: EnsureBaseImageOptions = {}): Promise<ImageRef> {
  const tag = o.tag ?? BASE_IMAGE_TAG;
  const include = o.include ?? BASE_IMAGE_PACKAGES;
  let p = pending.get(tag);
  if (p === undefined) {
    p = build(tag, include, o.onProgress);
    pending.set(tag, p);
    p.catch(() => pending.delete(tag));
  }
  return p;
}

async function build(
  tag: string,
  include: readonly string[],
  onProgress?: (line: string) => void,
): Promise<ImageRef> {
  const lock = join(tmpdir(), `longhaul-bootstrap-${tag.replace(/[^A-Za-z0-9_.-]/g, "_")}.lock`);
  let told = false;
  for (;;) {
    const have = await inspectImage(tag);
    if (have !== null) return have;
    if (takeLock(lock)) {
      try {
        const again = await inspectImage(tag);
        if (again !== null) return again;
        onProgress?.(`image ${tag} is missing: making it with debootstrap (${include.join(", ")})…`);
        return await bootstrapImage({ tag, include });
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    if (!told) onProgress?.(`waiting for another process to finish making ${tag}…`);
    told = true;
    await sleep(2000);
  }
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch {
    if (lockIsStale(lock)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function lockIsStale(lock: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(lock, "pid"), "utf8"), 10);
  } catch {
    // Between mkdir and the pid write the file is missing; only an old lock without one is stale.
    try {
      return Date.now() - statSync(lock).mtimeMs > 30_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** The images a Dockerfile builds FROM (stage names and build arguments are left out). */
export function fromImages(dockerfile: string): string[] {
  const stages = new Set<string>();
  const out: string[] = [];
  for (const raw of dockerfile.split("\n")) {
    const m = /^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(raw);
    if (!m?.[1]) continue;
    if (!stages.has(m[1].toLowerCase()) && !m[1].includes("$")) out.push(m[1]);
    if (m[2]) stages.add(m[2].toLowerCase());
  }
  return out;
}
