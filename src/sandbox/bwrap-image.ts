import { existsSync, lchownSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, InfraError, LonghaulError } from "../core/errors.js";
import { BwrapSandbox } from "./bwrap-sandbox.js";
import type { CgroupV1 } from "./cgroup.js";
import { copyTree, type PersistentBind, resolveHostPath } from "./host-paths.js";
import type { ImageRef } from "./image/types.js";
import { KIT_DIR, safeHostPath, setprivKit } from "./image-exec.js";
import { freshImageRoot } from "./image-fresh-root.js";
import {
  type ImageRoot,
  type ImageUser,
  identityUsernsPath,
  imageBaseEnv,
  mountImageRoot,
  resolveImageUser,
  seedImageRoot,
  unmountImageRoot,
} from "./image-root.js";
import { removeTreeAsync } from "./remove-tree.js";
import { chownTree } from "./sandbox-user.js";
import { mountStorage, releaseReserve, releaseStorage } from "./storage.js";
import { writeRecord } from "./sweep.js";
import type { SandboxSpec } from "./types.js";

/** What the provider hands over to build a sandbox over an image (see BwrapProvider.create). */
export interface ImageSandboxInput {
  id: string;
  spec: SandboxSpec & { image: ImageRef };
  bwrapPath: string;
  rootfs: string;
  cgroup: CgroupV1 | null;
  wrap: (argv: string[]) => string[];
  registryDir: string;
  /** "watch" when the disk quota may only be polled (BwrapProviderOptions.storage). */
  storage: "auto" | "watch";
  layer: "auto" | "copy";
  warn: (message: string) => void;
}

/**
 * A bwrap sandbox over an image's root file system: a writable layer over the cached rootfs in
 * the state folder (which is the loop-mounted quota when storageMb applies, so the quota covers
 * every write), /logs from the host as usual, commands as the image's USER with its ENV.
 */
export async function createImageSandbox(
  input: ImageSandboxInput,
): Promise<{ sandbox: BwrapSandbox; storage: "loop" | "watch" | null; release: () => Promise<void> }> {
  const { id, spec, warn } = input;
  const merged = join(spec.stateDir, "root", "merged");
  const record = writeRecord(input.registryDir, id, {
    ownerPid: process.pid,
    stateDir: spec.stateDir,
    uid: null,
    mounts: [merged],
  });
  let root: ImageRoot | null = null;
  const release = async (): Promise<void> => {
    const rootErr = root === null ? null : await unmountImageRoot(root);
    if (rootErr !== null) warn(`sandbox ${id}: could not unmount ${merged}: ${rootErr}`);
    const err = await releaseStorage(spec.stateDir);
    if (err !== null) warn(`sandbox ${id}: could not unmount ${spec.stateDir}: ${err}`);
    rmSync(record, { force: true });
  };
  const logs = join(spec.stateDir, "logs");
  let storage: "loop" | "watch" | null = null;
  try {
    if (spec.storageMb !== undefined) {
      const why =
        input.storage === "watch"
          ? "watch mode was chosen"
          : await mountStorage(spec.stateDir, spec.storageMb);
      storage = why === null ? "loop" : "watch";
      if (why !== null)
        warn(`sandbox disk quota is checked every second, not enforced by a filesystem (${why})`);
    }
    root = await mountImageRoot(input.rootfs, spec.stateDir, input.layer, warn);
    const user = resolveImageUser(input.rootfs, spec.user ?? spec.image.config.user);
    const giveTo = (p: string, owner: { uid: number; gid: number }): void => {
      if (owner.uid !== 0) chownTree(p, owner.uid, owner.gid);
    };
    const give = (p: string): void => giveTo(p, user);
    for (const d of [logs, join(logs, "agent"), join(logs, "verifier")]) await mkdir(d, { recursive: true });
    give(logs);
    seedImageRoot(root.merged, spec.allowInternet, (p) => safeHostPath(root?.merged ?? merged, p));
    // The workdir is the image's (its WORKDIR content); made, and given to the user, if missing.
    const workdir = resolveHostPath([{ sandboxRoot: "/", hostRoot: root.merged }], spec.workdir);
    const made = !existsSync(workdir);
    if (made) mkdirSync(workdir, { recursive: true });
    if (lstatSync(workdir).isSymbolicLink())
      throw new Error(`workdir ${spec.workdir} is a symlink in the image`);
    if (spec.environmentDir !== null) await copyTree(spec.environmentDir, workdir);
    if (made || spec.environmentDir !== null) give(workdir);
    if (made && user.uid !== 0) lchownSync(workdir, user.uid, user.gid);
    const asRoot = process.getuid?.() === 0;
    const kit = asRoot ? kitLayout() : null;
    const layoutFor = (u: ImageUser) => ({
      merged: root?.merged ?? merged,
      uid: u.uid,
      gid: u.gid,
      groups: u.groups,
      userns: asRoot,
      kit: u.uid !== 0 ? kit : null,
    });
    const binds: PersistentBind[] = [
      { sandboxRoot: "/logs", hostRoot: logs },
      { sandboxRoot: "/", hostRoot: root.merged },
    ];
    const sandbox = new BwrapSandbox({
      id,
      spec,
      bwrapPath: input.bwrapPath,
      binds,
      cgroup: input.cgroup,
      wrap: input.wrap,
      image: {
        layout: layoutFor(user),
        rootfs: input.rootfs,
        env: imageBaseEnv(spec.image.config, user),
        userns: asRoot ? identityUsernsPath : null,
        // Looked up in the image as built, not in the sandbox's /etc/passwd, which the agent may
        // have edited (as docker would resolve it after the edit; here the task's meaning wins).
        asUser: (name) => {
          const u = resolveImageUser(input.rootfs, name);
          return { layout: layoutFor(u), env: imageBaseEnv(spec.image.config, u) };
        },
        freshRoot: () =>
          freshImageRoot({
            rootfs: input.rootfs,
            agentRoot: root?.merged ?? merged,
            workdir: spec.workdir,
            allowInternet: spec.allowInternet,
            layer: input.layer,
            warn,
          }),
      },
      hooks: {
        afterCopyIn: give,
        beforeExec: (mounts, owner) => {
          for (const m of mounts) if (!m.readonly) giveTo(m.hostPath, owner ?? user);
        },
        freeRoom: () => releaseReserve(spec.stateDir),
        release,
      },
    });
    // Started here, so the first exec does not pay for the namespace.
    if (asRoot) await identityUsernsPath();
    return { sandbox, storage, release };
  } catch (e) {
    await input.cgroup?.remove();
    await release();
    await removeTreeAsync(spec.stateDir);
    throw e instanceof LonghaulError
      ? e
      : new InfraError(
          `cannot prepare sandbox over image ${spec.image.tag ?? spec.image.id}: ${errorMessage(e)}`,
          {
            cause: e,
          },
        );
  }
}

function kitLayout(): { files: { host: string; name: string }[]; dir: string; argv: string[] } | null {
  const kit = setprivKit();
  return kit === null ? null : { ...kit, dir: KIT_DIR };
}
