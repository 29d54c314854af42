import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join, posix } from "node:path";
import type { PersistentBind } from "../host-paths.js";
import { AGENT_ROOT_DIR } from "../image-fresh-root.js";
import { removeTree } from "../remove-tree.js";
import { chownTree } from "../sandbox-user.js";
import { isWithin } from "../spec.js";
import type { Mount, SandboxSpec } from "../types.js";
import type { ExecUser } from "./exec-mounts.js";
import { extractFolder } from "./pristine.js";
import { bindArg, confinementArgs, envArgs } from "./run-args.js";
import { WRAPPER, WRAPPER_NAME } from "./scripts.js";
import { ownerLabels } from "./sweep.js";

/** What an exec on a fresh copy of the image (ExecOptions.imageRoot) is made from. */
export interface FreshRootContext {
  spec: SandboxSpec;
  /** The image's id: the fresh container is made from it, never from the sandbox's container. */
  image: string;
  binds: readonly PersistentBind[];
  scratch: string;
  /** The sandbox container's root file system as a host folder (its overlay's merged folder). */
  agentRoot: string;
  pristine(path: string): Promise<Buffer | null>;
}

export interface FreshRootExec {
  user: ExecUser;
  cwd: string;
  env: Record<string, string>;
  mounts: readonly Mount[];
  freshDirs: readonly string[];
}

export interface FreshRootRun {
  /** Name of the container, for `docker rm -f` when the exec is killed. */
  name: string;
  /** Arguments of `docker run` (after the binary), the command last. */
  args: string[];
  /** Removes what was made on the host for the exec; call once the container is gone. */
  cleanup(): void;
}

/**
 * One exec in a container of its own, made from the image as it was built: nothing the sandbox's
 * commands changed in its system folders (a Python .pth file, a replaced interpreter,
 * /etc/ld.so.preload) or left in its /tmp and /root is there. The sandbox's workdir, /logs and
 * lifetime binds are bound in as in the sandbox's container, its root read-only at
 * AGENT_ROOT_DIR, and the exec's mounts are real binds. A fresh folder is the new container's
 * own where no bind covers it (so it vanishes with the container), else a copy of the image's.
 * Same limits, network and confinement as the sandbox's container; removed when it ends.
 * `detach`: `docker run -d`, for a background process; else attached, for an exec.
 */
export async function freshRootRun(
  ctx: FreshRootContext,
  e: FreshRootExec,
  argv: readonly string[],
  detach = false,
): Promise<FreshRootRun> {
  const name = `lh-fresh-${randomBytes(6).toString("hex")}`;
  const exec = e.mounts.map((m) => ({ ...m, sandboxPath: posix.normalize(m.sandboxPath) }));
  const taken = new Set([...exec.map((m) => m.sandboxPath), ...e.freshDirs]);
  // The workdir and /logs as in the sandbox's own container. /tmp and /root are the image's (they
  // are part of the image's root under bwrap too); a lifetime bind whose source is gone is left out.
  const sandbox = new Map<string, Mount>();
  for (const b of ctx.binds)
    if (b.sandboxRoot === ctx.spec.workdir || b.sandboxRoot === "/logs")
      sandbox.set(b.sandboxRoot, { hostPath: b.hostRoot, sandboxPath: b.sandboxRoot, readonly: false });
  for (const m of ctx.spec.mounts ?? []) if (existsSync(m.hostPath)) sandbox.set(m.sandboxPath, m);
  const mounts: Mount[] = [
    ...[...sandbox.values()].filter((m) => !taken.has(m.sandboxPath)),
    ...exec,
    { hostPath: ctx.agentRoot, sandboxPath: AGENT_ROOT_DIR, readonly: true },
  ];
  const made: string[] = [];
  const cleanup = (): void => {
    // Bound into the exec: the command may have left a tree deeper than the host can name.
    for (const p of made) removeTree(p);
  };
  try {
    for (const d of e.freshDirs) {
      if (exec.some((m) => m.sandboxPath === d)) continue;
      const covered = mounts.some((m) => d !== m.sandboxPath && isWithin(d, m.sandboxPath));
      const tar = await ctx.pristine(d);
      if (!covered && tar !== null) continue;
      const dest = join(ctx.scratch, `fresh-${randomBytes(5).toString("hex")}`);
      made.push(dest);
      if (tar === null || !(await extractFolder(tar, dest, ctx.scratch))) {
        mkdirSync(dest);
        chmodSync(dest, 0o755);
      }
      mounts.push({ hostPath: dest, sandboxPath: d, readonly: false });
    }
    // A writable mount belongs to the exec's user, as bwrap gives it to the sandbox's.
    if (e.user.uid !== 0)
      for (const m of exec) if (!m.readonly) chownTree(m.hostPath, e.user.uid, e.user.gid);
  } catch (err) {
    cleanup();
    throw err;
  }
  const args = [
    "run",
    // Detached: a background process (spawnBackground), whose output nobody reads.
    detach ? "-d" : "-i",
    "--rm",
    "--name",
    name,
    ...ownerLabels("fresh-root").flatMap((l) => ["--label", l]),
    // The output is read through the attached streams; docker need not keep a copy on disk.
    "--log-driver",
    "none",
    ...confinementArgs(ctx.spec),
    "-u",
    e.user.name,
    "-w",
    e.cwd,
    ...envArgs(e.env),
    ...mounts.flatMap(bindArg),
    "--entrypoint",
    "bash",
    ctx.image,
    "-c",
    WRAPPER,
    WRAPPER_NAME,
    ...argv,
  ];
  return { name, args, cleanup };
}
