import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InfraError } from "../core/errors.js";
import { USERNS_FD } from "./bwrap-args.js";
import { runHostCommand } from "./host-command.js";
import { safeMapToHost } from "./host-paths.js";
import { removeTreeAsync } from "./remove-tree.js";

/**
 * Per-exec pieces of a sandbox over an image: fresh folders as the image had them, the mount
 * points bwrap makes in the persistent root for one exec's mounts (removed again after it), and
 * the wrapper that hands bwrap the identity user namespace.
 */

/** Host path of `sandboxPath` under `root` without leaving it through a symlink; null if it would. */
export function safeHostPath(root: string, sandboxPath: string): string | null {
  return safeMapToHost([{ sandboxRoot: "/", hostRoot: root }], sandboxPath);
}

export interface FreshCopies {
  /** Fresh folder → host folder holding the image's content of it (empty if the image has none). */
  sources: Record<string, string>;
  remove(): Promise<void>;
}

/**
 * Copies of the image's own `dirs` (from the read-only rootfs) for one exec, under `scratch` (the
 * sandbox's state folder, on its disk quota). Where that disk refuses them (the agent filled its
 * quota, bytes or inodes, before the verifier's exec), they are made in a host folder outside it
 * instead: before, the ENOSPC of that mkdir was thrown out of the trial and ended the whole job,
 * and a copy cut short left the verifier an empty /root without the image's tools in it.
 */
export async function freshCopies(
  rootfs: string,
  dirs: readonly string[],
  scratch: string,
): Promise<FreshCopies> {
  if (dirs.length === 0) return { sources: {}, remove: async () => undefined };
  const base = join(scratch, `fresh-${randomBytes(4).toString("hex")}`);
  const sources = await copiesUnder(rootfs, dirs, base);
  if (sources !== null) return { sources, remove: () => removeTreeAsync(base) };
  await removeTreeAsync(base);
  // Named like the runner's other state folders, so a crashed runner's leftovers are swept.
  const spare = mkdtempSync(join(tmpdir(), `longhaul-${process.pid}-fresh-`));
  const again = await copiesUnder(rootfs, dirs, spare);
  if (again === null) {
    await removeTreeAsync(spare);
    throw new InfraError(`could not make the fresh folders ${dirs.join(", ")} of an exec in ${tmpdir()}`);
  }
  return { sources: again, remove: () => removeTreeAsync(spare) };
}

/** The copies under `base`, or null when one could not be made whole. */
async function copiesUnder(
  rootfs: string,
  dirs: readonly string[],
  base: string,
): Promise<Record<string, string> | null> {
  const sources: Record<string, string> = {};
  try {
    mkdirSync(base, { recursive: true });
    for (const [i, dir] of dirs.entries()) {
      const to = join(base, String(i));
      const from = safeHostPath(rootfs, dir);
      if (from !== null && existsSync(from)) {
        const argv = ["cp", "-a", "--reflink=auto", "--no-dereference", from, to];
        const r = await runHostCommand(argv, { timeoutMs: 300_000, capture: false });
        if (r.status !== 0 || !existsSync(to)) throw new Error(`cp ${from} failed`);
      } else {
        mkdirSync(to, { recursive: true, mode: 0o1777 });
      }
      sources[dir] = to;
    }
  } catch {
    return null;
  }
  return sources;
}

/**
 * Folders bwrap makes in the persistent root to hold one exec's mounts (say /tests): counted per
 * exec and removed, when empty, after the last exec that needed them, so they do not pile up.
 */
export class MountPoints {
  private readonly users = new Map<string, number>();

  constructor(private readonly merged: string) {}

  /**
   * `points`: each mount's place in the sandbox and whether what is mounted there is a folder.
   * What the sandbox's processes left on the way to a mount point that is not a real folder (a
   * link, a file) is removed first: bwrap follows a link there, so an agent that made /tests a
   * link to app/t would find the verifier's tests mounted inside its workdir, and one that made
   * it a link to a host path, or a file, would make the verifier's exec fail.
   */
  claim(points: readonly { sandboxPath: string; folder: boolean }[]): string[] {
    const claimed: string[] = [];
    for (const { sandboxPath: p, folder } of points) {
      const parts = p.split("/").filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const host = safeHostPath(this.merged, `/${parts.slice(0, i).join("/")}`);
        if (host === null) break;
        const st = lstatSync(host, { throwIfNoEntry: false });
        const wantFolder = i < parts.length || folder;
        // Ancestors are real folders inside the root by now (safeHostPath, and the steps before).
        if (st !== undefined && (st.isSymbolicLink() || wantFolder !== st.isDirectory()))
          rmSync(host, { recursive: true, force: true });
        const n = this.users.get(host);
        if (n !== undefined) this.users.set(host, n + 1);
        else if (!existsSync(host)) this.users.set(host, 1);
        else continue;
        claimed.push(host);
      }
    }
    return claimed;
  }

  release(claimed: readonly string[]): void {
    for (const host of [...claimed].sort((a, b) => b.length - a.length)) {
      const n = (this.users.get(host) ?? 1) - 1;
      if (n > 0) {
        this.users.set(host, n);
        continue;
      }
      this.users.delete(host);
      try {
        rmdirSync(host);
      } catch {
        // Not empty (the command wrote there without a mount) or already gone: left as it is.
      }
    }
  }
}

/** argv that opens the user namespace at `nsPath` on USERNS_FD for bwrap's --userns. */
export function withUserns(nsPath: string, argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", `exec "$@" ${USERNS_FD}<"$0"`, nsPath, ...argv];
}

/**
 * The host's setpriv with its own loader and libraries, shown read-only under KIT_DIR, so a
 * command over an image can drop from root to the image's USER whatever the image holds. (bwrap
 * 0.8 cannot switch to a uid other than 0 inside a user namespace it joins: it changes uid
 * before it mounts and loses the capabilities to do so.)
 */
export const KIT_DIR = "/run/longhaul";

export interface SetprivKit {
  /** Host file → name under KIT_DIR. */
  files: { host: string; name: string }[];
  /** argv prefix that runs the kit's setpriv. */
  argv: string[];
}

let kit: SetprivKit | null | undefined;

export function setprivKit(): SetprivKit | null {
  if (kit !== undefined) return kit;
  kit = null;
  const which = spawnSync("sh", ["-c", "command -v setpriv"], { encoding: "utf8" }).stdout.trim();
  if (which === "") return kit;
  const ldd = spawnSync("ldd", [which], { encoding: "utf8" });
  if (ldd.status !== 0) return kit;
  const files = [{ host: realpathSync(which), name: "setpriv" }];
  let loader: string | null = null;
  for (const line of ldd.stdout.split("\n")) {
    const lib = /^\s*(\S+) => (\/\S+)/.exec(line);
    if (lib?.[1] !== undefined && lib[2] !== undefined)
      files.push({ host: realpathSync(lib[2]), name: lib[1] });
    const ld = /^\s*(\/\S*ld-linux\S*)/.exec(line);
    if (ld?.[1] !== undefined) loader = realpathSync(ld[1]);
  }
  if (loader === null) return kit;
  files.push({ host: loader, name: "ld.so" });
  kit = { files, argv: [`${KIT_DIR}/ld.so`, "--library-path", KIT_DIR, `${KIT_DIR}/setpriv`] };
  return kit;
}
