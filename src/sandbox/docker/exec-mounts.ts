import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  statSync,
} from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { childPathsBytes } from "../../core/byte-paths.js";
import { UserError } from "../../core/errors.js";
import {
  claimHostParents,
  copyTree,
  mapToHost,
  type PersistentBind,
  resolveHostPath,
} from "../host-paths.js";
import { removeTree } from "../remove-tree.js";
import { chownTree } from "../sandbox-user.js";
import type { Mount } from "../types.js";
import { type ContainerItem, LOCKED_UID, stageInContainer, type Undo } from "./container-stage.js";
import { extractFolder } from "./pristine.js";
import { collect } from "./proc.js";

export { LOCKED_UID } from "./container-stage.js";

export interface ExecUser {
  /** As given to `docker exec -u` (the image's USER, or "0"). */
  name: string;
  uid: number;
  gid: number;
}

export interface StageContext {
  container: string;
  binds: readonly PersistentBind[];
  /** Host folder on the same file system as the binds, for folders moved aside. */
  scratch: string;
  user: ExecUser;
  /** Runs `bash -c script` in the container as `user`; InfraError when it fails. */
  helper(user: string, script: string, args: readonly string[]): Promise<string>;
  /** Trash (a staged folder moved aside) to empty as `owner` before the sandbox's next command. */
  deferCleanup(owner: ExecUser, path: string): void;
  /** The image's own copy of a folder, as a `docker cp` tar (null: the image has none). */
  pristine(path: string): Promise<Buffer | null>;
}

type Source = { kind: "mount"; mount: Mount } | { kind: "fresh" };
interface Item {
  path: string;
  source: Source;
}

/**
 * Shows per-exec mounts and fresh folders to the next exec, and returns how to take them away.
 * Docker cannot bind a folder into one `docker exec`, so this changes the container for as long
 * as the exec runs: every exec running meanwhile sees the same (the runner runs the verifier alone).
 * Host-kept folders (workdir, /logs, /tmp, /root) are switched on the host; elsewhere the files
 * are copied in with `docker cp` and, for writable mounts, copied back to the host afterwards
 * (container-stage.ts).
 */
export async function stageExec(
  ctx: StageContext,
  mounts: readonly Mount[],
  freshDirs: readonly string[],
): Promise<() => Promise<void>> {
  for (const m of mounts) {
    if (!existsSync(m.hostPath)) throw new UserError(`mount source ${m.hostPath} does not exist`);
  }
  // A source inside the sandbox's own host folders (the runner shows /logs/agent read-only in a
  // fresh /logs) would be moved aside with them: it is copied first.
  const roots = ctx.binds.map((b) => realpathSync(b.hostRoot));
  const snapshots: string[] = [];
  const sources: Mount[] = [];
  for (const m of mounts) {
    const real = realpathSync(m.hostPath);
    if (!roots.some((r) => real === r || real.startsWith(`${r}/`))) {
      sources.push(m);
      continue;
    }
    const copy = join(ctx.scratch, `source-${newName()}`);
    await snapshotCopy(real, copy);
    snapshots.push(copy);
    sources.push({ ...m, hostPath: copy });
  }
  const items: Item[] = [
    ...freshDirs.map((path): Item => ({ path, source: { kind: "fresh" } })),
    ...sources.map(
      (mount): Item => ({ path: posix.normalize(mount.sandboxPath), source: { kind: "mount", mount } }),
    ),
  ].sort((a, b) => a.path.split("/").length - b.path.split("/").length);
  const undo: Undo[] = [
    async () => {
      for (const p of snapshots) removeTree(p);
    },
  ];
  let containerUndo: Undo | null = null;
  const restore = async (): Promise<void> => {
    // The container's items and the host's are apart (none nests in another): undone side by side.
    const inContainer = containerUndo?.() ?? Promise.resolve();
    let first: unknown = null;
    for (const u of undo.reverse()) {
      try {
        await u();
      } catch (e) {
        first ??= e;
      }
    }
    await inContainer.catch((e: unknown) => {
      first ??= e;
    });
    if (first !== null) throw first;
  };
  const inContainer: ContainerItem[] = [];
  for (const item of items)
    if (mapToHost(ctx.binds, item.path) === null)
      inContainer.push(
        item.source.kind === "mount"
          ? { path: item.path, kind: "mount", mount: item.source.mount }
          : { path: item.path, kind: "fresh" },
      );
  // Staged together, in as few docker calls as they allow (container-stage.ts), while the host's
  // folders are switched; a failure there has undone its own part.
  const staging =
    inContainer.length === 0
      ? Promise.resolve({ ok: true as const, undo: null })
      : stageInContainer(ctx, inContainer).then(
          (u) => ({ ok: true as const, undo: u }),
          (e: unknown) => ({ ok: false as const, error: e }),
        );
  let hostError: { e: unknown } | null = null;
  try {
    for (const item of items)
      if (mapToHost(ctx.binds, item.path) !== null) undo.push(await stageOnHost(ctx, item));
  } catch (e) {
    hostError = { e };
  }
  const staged = await staging;
  if (staged.ok) containerUndo = staged.undo;
  if (hostError !== null || !staged.ok) {
    await restore().catch(() => undefined);
    throw hostError !== null ? hostError.e : staged.ok ? null : staged.error;
  }
  return restore;
}

function newName(): string {
  return randomBytes(5).toString("hex");
}

/** Under a host-kept folder: move what is there aside on the host, put the new content in place. */
async function stageOnHost(ctx: StageContext, item: Item): Promise<Undo> {
  claimHostParents(ctx.binds, item.path);
  const target = resolveHostPath(ctx.binds, item.path);
  const isRoot = ctx.binds.some((b) => realpathSync(b.hostRoot) === target);
  const aside = join(ctx.scratch, `aside-${newName()}`);
  const before = isRoot ? statSync(target) : null;
  let movedAside = false;
  if (isRoot) {
    mkdirSync(aside);
    for (const n of readdirSync(target)) renameSync(join(target, n), join(aside, n));
  } else if (lstatSync(target, { throwIfNoEntry: false }) !== undefined) {
    renameSync(target, aside);
    movedAside = true;
  }
  // The content goes to a staging folder first, then into place with renames.
  const staged = join(ctx.scratch, `stage-${newName()}`);
  if (item.source.kind === "fresh") {
    const tar = await ctx.pristine(item.path);
    if (tar === null || !(await extractFolder(tar, staged, ctx.scratch))) mkdirSync(staged, { mode: 0o755 });
  } else {
    // A snapshot is this exec's own copy, on the same file system: moved, not copied again.
    if (
      basename(item.source.mount.hostPath).startsWith("source-") &&
      dirname(item.source.mount.hostPath) === ctx.scratch
    )
      renameSync(item.source.mount.hostPath, staged);
    else await copyTree(item.source.mount.hostPath, staged);
    if (item.source.mount.readonly) lockTree(staged);
    else if (ctx.user.uid !== 0) chownTree(staged, ctx.user.uid, ctx.user.gid);
  }
  if (isRoot) {
    const st = lstatSync(staged);
    if (!st.isDirectory()) throw new UserError(`cannot show a file at ${item.path}, a folder of the sandbox`);
    for (const n of readdirSync(staged)) renameSync(join(staged, n), join(target, n));
    chownSync(target, st.uid, st.gid);
    chmodSync(target, st.mode & 0o7777);
    removeTree(staged);
  } else {
    mkdirSync(dirname(target), { recursive: true });
    renameSync(staged, target);
  }
  const source = item.source;
  return async () => {
    // What an exec wrote may lie deeper than a path can name (a verifier running the agent's
    // program in /tmp or /logs): it is left out of the copy back and removed by descriptor, where
    // Node's rm and cp threw ENAMETOOLONG out of the exec (an error the agent chose).
    if (source.kind === "mount" && !source.mount.readonly)
      await copyTree(target, source.mount.hostPath, { skipTooDeep: true });
    if (isRoot && before !== null) {
      for (const n of readdirSync(target)) removeTree(join(target, n));
      for (const n of readdirSync(aside)) renameSync(join(aside, n), join(target, n));
      removeTree(aside);
      chownSync(target, before.uid, before.gid);
      chmodSync(target, before.mode & 0o7777);
    } else {
      removeTree(target);
      if (movedAside) renameSync(aside, target);
    }
  };
}

/**
 * Files nobody in the sandbox may change: owned by LOCKED_UID, no write bits. Paths are bytes,
 * since names the agent made need not be UTF-8.
 */
function lockTree(p: string): void {
  const stack: Buffer[] = [Buffer.from(p)];
  for (let q = stack.pop(); q !== undefined; q = stack.pop()) {
    const st = lstatSync(q);
    lchownSync(q, LOCKED_UID, LOCKED_UID);
    if (st.isSymbolicLink()) continue;
    // As in container-stage.ts: owned by LOCKED_UID, so only group and other write bits matter.
    chmodSync(q, st.mode & 0o7755);
    if (st.isDirectory()) for (const c of childPathsBytes(q)) stack.push(c);
  }
}

/**
 * Copies a folder the agent could fill (its own /logs/agent, shown to the verifier) with cp(1):
 * FIFOs, sockets and names that are not UTF-8 are copied as they are. When the copy cannot be
 * made (the sandbox's disk quota is full, say), the exec sees an empty folder instead: what the
 * agent put there is its own loss, never a failure of the trial.
 */
async function snapshotCopy(from: string, to: string): Promise<void> {
  const r = await collect(["cp", "-a", "--reflink=auto", "--", from, to]);
  if (r.code === 0) return;
  removeTree(to);
  mkdirSync(to, { mode: 0o755 });
}
