import { lstatSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, InfraError } from "../core/errors.js";
import { safeHostPath } from "./image-exec.js";
import { type ImageRoot, mountImageRoot, seedImageRoot, unmountImageRoot } from "./image-root.js";
import { removeTreeAsync } from "./remove-tree.js";
import type { Mount } from "./types.js";

/** Where an exec on a fresh image root (ExecOptions.imageRoot) finds the sandbox's own root. */
export const AGENT_ROOT_DIR = "/longhaul/agent-root";

export interface FreshImageRootInput {
  /** The image's cached root file system (read-only, never written). */
  rootfs: string;
  /** The sandbox's own root, as its execs left it. */
  agentRoot: string;
  workdir: string;
  allowInternet: boolean;
  layer: "auto" | "copy";
  warn: (message: string) => void;
}

export interface FreshImageRoot {
  /** Host folder to bind as / for the exec. */
  merged: string;
  /** The sandbox's workdir (writable, when it is still a real folder) and root (read-only). */
  mounts: Mount[];
  remove(): Promise<void>;
}

/**
 * A root file system for one exec as the image was built: an overlay over the cached rootfs in
 * a folder of its own (outside the sandbox's disk quota, named so a dead runner's is swept).
 * Nothing the sandbox's earlier execs did to the image's system folders (a Python .pth file, a
 * replaced interpreter, /etc/ld.so.preload) reaches it; only the workdir is carried over.
 */
export async function freshImageRoot(input: FreshImageRootInput): Promise<FreshImageRoot> {
  const dir = mkdtempSync(join(tmpdir(), `longhaul-${process.pid}-image-root-`));
  let root: ImageRoot | null = null;
  const remove = async (): Promise<void> => {
    const err = root === null ? null : await unmountImageRoot(root);
    if (err !== null) input.warn(`could not unmount ${root?.merged}: ${err}`);
    else await removeTreeAsync(dir);
  };
  try {
    root = await mountImageRoot(input.rootfs, dir, input.layer, input.warn);
    const merged = root.merged;
    seedImageRoot(merged, input.allowInternet, (p) => safeHostPath(merged, p));
    const mounts: Mount[] = [{ hostPath: input.agentRoot, sandboxPath: AGENT_ROOT_DIR, readonly: true }];
    // A workdir the agent replaced by a link (or removed) is not carried over: the exec then
    // finds the image's own, which is what the agent left in its place.
    const work = safeHostPath(input.agentRoot, input.workdir);
    if (work !== null && lstatSync(work, { throwIfNoEntry: false })?.isDirectory() === true)
      mounts.push({ hostPath: work, sandboxPath: input.workdir, readonly: false });
    return { merged, mounts, remove };
  } catch (e) {
    await remove();
    throw e instanceof InfraError
      ? e
      : new InfraError(`cannot make a fresh image root: ${errorMessage(e)}`, { cause: e });
  }
}
