import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync } from "node:fs";
import { posix } from "node:path";
import { UserError } from "../../core/errors.js";
import { copyTree, mapToHost, type PersistentBind, resolveHostPath } from "../host-paths.js";
import { removeTree } from "../remove-tree.js";
import { chownTree } from "../sandbox-user.js";
import type { ExecUser } from "./exec-mounts.js";
import { type Collected, dockerBin, pipeOk } from "./proc.js";

export interface TransferContext {
  /** The sandbox's id, for messages. */
  id: string;
  container: string;
  binds: readonly PersistentBind[];
  /** Owner of what is uploaded: the sandbox's exec user. */
  user: ExecUser;
  /** Runs `bash -c script` in the container as `user`; InfraError when it fails. */
  helper(user: string, script: string, args: readonly string[]): Promise<string>;
  /** The same, its exit code left to the caller. */
  helperRaw(user: string, script: string, args: readonly string[]): Promise<Collected>;
  /** Empties the sandbox's trash, which `docker cp` would otherwise copy out. */
  emptyTrash(): Promise<void>;
}

/**
 * Copies a host file or folder to a sandbox path, owned by the exec user: on the host under a
 * host-kept folder, else through `docker cp` of a tar whose owner and name are set as it is made.
 */
export async function uploadTo(ctx: TransferContext, hostPath: string, sandboxPath: string): Promise<void> {
  if (!existsSync(hostPath)) throw new UserError(`upload: ${hostPath} does not exist`);
  const p = posix.normalize(sandboxPath);
  if (mapToHost(ctx.binds, p) !== null) {
    const to = resolveHostPath(ctx.binds, p);
    await copyTree(hostPath, to);
    if (ctx.user.uid !== 0) {
      chownTree(to, ctx.user.uid, ctx.user.gid);
    }
    return;
  }
  await ctx.helper("0", 'mkdir -p -- "$1"', [posix.dirname(p)]);
  const { uid, gid } = ctx.user;
  const name = posix.basename(p).replace(/[\\&,]/g, "\\$&");
  await pipeOk(
    `upload to ${p}`,
    [
      "tar",
      "-c",
      "-C",
      posix.dirname(hostPath),
      `--owner=${uid}`,
      `--group=${gid}`,
      "--numeric-owner",
      `--transform=s,^[^/]*,${name},S`,
      "--",
      posix.basename(hostPath),
    ],
    [dockerBin(), "cp", "-", `${ctx.container}:${posix.dirname(p)}`],
  );
}

/** Copies a sandbox file or folder to the host; throws a UserError if it does not exist. */
export async function downloadFrom(
  ctx: TransferContext,
  sandboxPath: string,
  hostPath: string,
): Promise<void> {
  const p = posix.normalize(sandboxPath);
  if (mapToHost(ctx.binds, p) !== null) {
    const from = resolveHostPath(ctx.binds, p);
    if (lstatSync(from, { throwIfNoEntry: false }) === undefined) {
      throw new UserError(`download: ${sandboxPath} does not exist in sandbox ${ctx.id}`);
    }
    await copyTree(from, hostPath);
    return;
  }
  await ctx.emptyTrash();
  const staging = `${hostPath}.lh-download-${randomBytes(4).toString("hex")}`;
  mkdirSync(staging, { recursive: true });
  try {
    const probe = await ctx.helperRaw("0", 'test -e "$1" || test -L "$1"', [p]);
    if (probe.code !== 0) throw new UserError(`download: ${sandboxPath} does not exist in sandbox ${ctx.id}`);
    await pipeOk(
      `download of ${p}`,
      [dockerBin(), "cp", `${ctx.container}:${p}`, "-"],
      ["tar", "-x", "--no-same-owner", "-C", staging, "-f", "-"],
    );
    await copyTree(posix.join(staging, posix.basename(p)), hostPath);
  } finally {
    // Its tree may lie deeper than the host can name (a longer path than the container's).
    removeTree(staging);
  }
}
