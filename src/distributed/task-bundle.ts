import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { loadTask } from "../task/load.js";
import type { Task } from "../task/types.js";
import { BlobError, type BlobStore, TASK_BLOB_TTL_SEC } from "./blob-store.js";
import { packDir, unpackTo } from "./pack.js";

/** How a queued trial names its task: the bundle's digest and the folder name it unpacks to. */
export interface TaskBundleRef {
  name: string;
  /** The task folder's base name: a task without `[task] name` is named after its folder. */
  folder: string;
  checksum: string;
  bundle: string;
}

/** Uploads a task folder once (content-addressed) and says how workers find it. */
export async function uploadTask(blobs: BlobStore, task: Task): Promise<TaskBundleRef> {
  const bundle = await blobs.put(packDir(task.dir), TASK_BLOB_TTL_SEC);
  return { name: task.name, folder: basename(task.dir), checksum: task.checksum, bundle };
}

/**
 * The task of a bundle, unpacked under `<cacheDir>/tasks/<digest>/<folder>` the first time and
 * read from there after: a bundle's digest names its bytes, so a cached copy never goes stale.
 * A cached copy damaged on disk (edited, half deleted) is removed and fetched again once; only a
 * fresh copy that does not match either fails.
 */
export async function fetchTask(blobs: BlobStore, ref: TaskBundleRef, cacheDir: string): Promise<Task> {
  const home = join(cacheDir, "tasks", ref.bundle);
  const cached = existsSync(join(home, ".complete"));
  if (cached) {
    try {
      return await loadChecked(home, ref);
    } catch {
      // The bytes in Redis are checked against the digest; the copy on this disk was not.
      rmSync(home, { recursive: true, force: true });
    }
  }
  await unpackBundle(blobs, ref, cacheDir, home);
  return loadChecked(home, ref);
}

async function unpackBundle(
  blobs: BlobStore,
  ref: TaskBundleRef,
  cacheDir: string,
  home: string,
): Promise<void> {
  const bytes = await blobs.get(ref.bundle);
  // Unpacked beside and renamed into place: a worker killed mid-way leaves no half task.
  const tmp = `${home}.tmp-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  rmSync(tmp, { recursive: true, force: true });
  unpackTo(bytes, join(tmp, ref.folder));
  writeFileSync(join(tmp, ".complete"), "");
  mkdirSync(join(cacheDir, "tasks"), { recursive: true });
  try {
    renameSync(tmp, home);
  } catch {
    // Another trial of this worker unpacked it first: theirs is the same bytes.
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function loadChecked(home: string, ref: TaskBundleRef): Promise<Task> {
  const task = await loadTask(join(home, ref.folder));
  if (task.name !== ref.name || task.checksum !== ref.checksum) {
    throw new BlobError(
      `task bundle ${ref.bundle.slice(0, 12)} holds ${task.name} (checksum ${task.checksum.slice(0, 12)}), not ${ref.name} (${ref.checksum.slice(0, 12)})`,
    );
  }
  return task;
}
