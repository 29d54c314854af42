import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bootstrapImage } from "../../src/sandbox/image/bootstrap.js";
import { inspectImage } from "../../src/sandbox/image/inspect.js";
import type { ImageRef } from "../../src/sandbox/image/types.js";

/**
 * The Debian base image container tests build FROM, made offline with debootstrap the first time
 * a machine needs it (about a minute) and reused after. It has python3, so the sandbox
 * conformance suite and pytest-free graders run in it.
 */
export const TEST_BASE_IMAGE = "longhaul-test-base:bookworm";

/** Held (as a folder holding the holder's pid) by the one process running debootstrap. */
const LOCK = join(tmpdir(), "longhaul-test-base-image.lock");

let pending: Promise<ImageRef> | null = null;

/**
 * The base image, built at most once even when several vitest worker processes ask at once: the
 * first takes the lock and builds, the others poll until the tag exists or the lock is free.
 */
export function ensureTestBaseImage(): Promise<ImageRef> {
  pending ??= (async () => {
    for (;;) {
      const have = await inspectImage(TEST_BASE_IMAGE);
      if (have !== null) return have;
      if (takeLock()) {
        try {
          return (
            (await inspectImage(TEST_BASE_IMAGE)) ??
            (await bootstrapImage({ tag: TEST_BASE_IMAGE, include: ["python3"] }))
          );
        } finally {
          rmSync(LOCK, { recursive: true, force: true });
        }
      }
      await sleep(2000);
    }
  })();
  pending.catch(() => {
    pending = null;
  });
  return pending;
}

function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    return true;
  } catch {
    if (lockIsStale()) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function lockIsStale(): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(join(LOCK, "pid"), "utf8"), 10);
  } catch {
    // Between mkdir and the pid write the file is missing; only an old lock without one is stale.
    try {
      return Date.now() - statSync(LOCK).mtimeMs > 30_000;
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
