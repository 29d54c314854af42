import { UserError } from "../core/errors.js";
import type { PersistentBind } from "./host-paths.js";
import { isWithin } from "./spec.js";
import type { Mount } from "./types.js";

/** Host folders shown read-only inside every sandbox (the rest of the host stays invisible). */
export const SYSTEM_BINDS = ["/usr", "/etc", "/opt", "/var"] as const;

/** Host files under the system binds that hold secrets: covered by a device node that cannot be opened (binds are nodev). */
export const MASKED_FILES = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"] as const;

export interface BwrapLayout {
  /** Persistent binds: workdir, /logs, /tmp, /root. */
  binds: readonly PersistentBind[];
  allowInternet: boolean;
  /**
   * Extra bwrap arguments covering host paths the sandbox must not read (see host-secrets.ts). A
   * function is asked again for each exec, so a masked path deleted since is left out.
   */
  masks?: readonly string[] | (() => readonly string[]);
  /**
   * Run the command as this host uid/gid instead of root, so RLIMIT_NPROC holds (the kernel
   * never applies it to root). No user namespace then: bwrap sets up as root and the command
   * drops to the uid through setpriv (at this path) before it runs.
   */
  runAs?: { uid: number; gid: number; setpriv: string } | null;
  /** Over an image: its merged root is / (the host's system folders are not shown at all). */
  image?: ImageLayout | null;
}

/** How an exec over an image is laid out (see image-root.ts). */
export interface ImageLayout {
  /** Host folder bound writable as /. */
  merged: string;
  /** The image user the command runs as. */
  uid: number;
  gid: number;
  /**
   * True: join the identity-mapped user namespace open on USERNS_FD (files keep their owners).
   * False: a new user namespace mapping only the caller's uid (not root: the copy fallback).
   */
  userns: boolean;
  /** Supplementary groups of the image user (from the image's /etc/group). */
  groups: readonly number[];
  /**
   * In the joined namespace, how a non-root image user is reached: root sets up the sandbox and
   * the kit's setpriv (host files bound under its folder) drops to the user before the command.
   */
  kit: { files: readonly { host: string; name: string }[]; dir: string; argv: readonly string[] } | null;
}

/** The fd an exec over an image finds the identity user namespace on (see image-root.ts). */
export const USERNS_FD = 4;

/** Per-exec additions to the layout (ExecOptions.freshDirs / nestedSandbox). */
export interface BwrapExecExtras {
  freshDirs?: readonly string[];
  /** Over an image: host folders holding the image's own content of fresh folders (else empty). */
  freshSources?: Readonly<Record<string, string>>;
  nestedSandbox?: boolean;
  /**
   * Size cap of each fresh folder made as a tmpfs (bwrap --size). Set under the rlimit fallback,
   * where no limit counts files in memory (they are no process's resident memory).
   */
  tmpfsBytes?: number;
}

/**
 * The user an exec that may nest sandboxes runs as inside its namespace (still host root
 * outside). A process without capabilities may not map uid 0 of its parent namespace into a
 * child one (Linux 5.12+ asks for CAP_SETFCAP), so a nested bwrap started by root is refused;
 * started by this uid it maps that uid instead, and no capability is handed out.
 */
export const NESTING_UID = 1000;

/**
 * The first process inside the sandbox. It reports on fd 3 that the sandbox is up (so a failing
 * bwrap is told apart from a failing command), closes fd 3 so the command never sees it, then
 * changes to the working folder and execs the command. A missing folder or command is therefore
 * the command's failure (exit 126/127), not the sandbox's.
 */
export const LAUNCHER_SCRIPT = 'printf x >&3; exec 3>&- 4<&-; cd -- "$1" || exit 126; shift; exec "$@"';

/** argv of one bwrap invocation running `command` (argv) in `cwd`. */
export function bwrapArgs(
  bwrapPath: string,
  layout: BwrapLayout,
  mounts: readonly Mount[],
  cwd: string,
  command: readonly string[],
  extras: BwrapExecExtras = {},
): string[] {
  if (layout.image != null) return imageArgs(bwrapPath, layout, layout.image, mounts, cwd, command, extras);
  const fresh = extras.freshDirs ?? [];
  const args: string[] = [bwrapPath, "--tmpfs", "/"];
  for (const dir of SYSTEM_BINDS) args.push("--ro-bind-try", dir, dir);
  for (const file of MASKED_FILES) args.push("--ro-bind-try", "/dev/null", file);
  const masks = typeof layout.masks === "function" ? layout.masks() : layout.masks;
  if (masks !== undefined) args.push(...masks);
  args.push(
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/sbin",
    "/sbin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/run",
    "--dir",
    "/home",
  );
  // Parents before children, so a mount nested in another (say /app/tests) lands on top.
  // A fresh folder replaces the persistent bind at its path (and any bind inside it).
  const all = orderedMounts(layout, mounts, { freshDirs: fresh });
  // Folders bwrap makes on the tmpfs root to hold a mount (say /longhaul for /longhaul/kit) would
  // be 0700 root-owned when bwrap runs privileged; a sandbox running as another uid could then
  // not reach the mount. Make them first, world-searchable.
  for (const dir of parentsToMake(all.map((m) => m.sandboxPath))) args.push("--perms", "0755", "--dir", dir);
  for (const m of all) {
    // 1777 like /tmp: writable whichever uid the exec runs as.
    if (m.hostPath === null) args.push(...tmpfsSize(extras), "--perms", "1777", "--tmpfs", m.sandboxPath);
    else args.push(m.readonly ? "--ro-bind" : "--bind", m.hostPath, m.sandboxPath);
  }
  // --as-pid-1: the command itself is pid 1 and bwrap waits on it directly. With bwrap's own init
  // in between, that init outlives bwrap as an orphan and the host reaps it late, keeping its pid
  // charged to the sandbox's cgroup for a second or more after every exec.
  const runAs = layout.runAs ?? null;
  args.push("--remount-ro", "/");
  if (runAs === null) {
    args.push("--as-pid-1", "--unshare-all");
    if (layout.allowInternet) args.push("--share-net");
    // With a user namespace, root inside may not hand uid 0 on to a nested one: a verifier that
    // nests sandboxes runs as an ordinary uid in its namespace instead (host root outside).
    if (extras.nestedSandbox === true) args.push("--uid", String(NESTING_UID), "--gid", String(NESTING_UID));
  } else {
    // Already an unprivileged host uid here: a nested bwrap makes its own user namespace.
    // bwrap's own init stays pid 1 here: it keeps root's parent-death signal, which the uid
    // change would clear on the command, so killing bwrap still ends the whole sandbox.
    args.push("--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try");
    if (!layout.allowInternet) args.push("--unshare-net");
  }
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  // setpriv needs these two to change uid; the uid change itself clears every capability.
  if (runAs !== null) args.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID");
  args.push("--hostname", "sandbox", "--chdir", "/");
  const drop =
    runAs === null
      ? []
      : [
          runAs.setpriv,
          `--reuid=${runAs.uid}`,
          `--regid=${runAs.gid}`,
          "--clear-groups",
          "--inh-caps=-all",
          "--",
        ];
  args.push("--", "/bin/sh", "-c", LAUNCHER_SCRIPT, "sh", cwd, ...drop, ...command);
  return args;
}

/** Binds of persistent folders, exec mounts and fresh folders, parents before children. */
function orderedMounts(
  layout: BwrapLayout,
  mounts: readonly Mount[],
  extras: BwrapExecExtras,
): { hostPath: string | null; sandboxPath: string; readonly: boolean }[] {
  const fresh = extras.freshDirs ?? [];
  const shown = layout.binds.filter((b) => !fresh.some((f) => isWithin(b.sandboxRoot, f)));
  return [
    ...shown.map((b) => ({ hostPath: b.hostRoot, sandboxPath: b.sandboxRoot, readonly: false })),
    ...mounts,
    ...fresh.map((f) => ({ hostPath: extras.freshSources?.[f] ?? null, sandboxPath: f, readonly: false })),
  ].sort((a, b) => depth(a.sandboxPath) - depth(b.sandboxPath));
}

/**
 * An exec over an image: the sandbox's merged root is / and stays writable (it persists across
 * execs, like a container's); /dev, /proc and /run are the sandbox's own. The command runs as the
 * image user inside a user namespace, with every capability dropped.
 */
function imageArgs(
  bwrapPath: string,
  layout: BwrapLayout,
  image: ImageLayout,
  mounts: readonly Mount[],
  cwd: string,
  command: readonly string[],
  extras: BwrapExecExtras,
): string[] {
  const args = [
    bwrapPath,
    "--bind",
    image.merged,
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/run",
  ];
  // The root's own entry among the binds (it maps sandbox paths to the host) is bound above.
  const binds = layout.binds.filter((b) => b.sandboxRoot !== "/");
  for (const m of orderedMounts({ ...layout, binds }, mounts, extras)) {
    if (m.hostPath === null) args.push(...tmpfsSize(extras), "--perms", "1777", "--tmpfs", m.sandboxPath);
    else args.push(m.readonly ? "--ro-bind" : "--bind", m.hostPath, m.sandboxPath);
  }
  const drop = image.userns && image.uid !== 0 ? image.kit : null;
  if (image.userns && image.uid !== 0 && drop === null) {
    throw new UserError(
      `running as the image's user (uid ${image.uid}) needs setpriv (util-linux) on the host`,
    );
  }
  for (const f of drop?.files ?? []) args.push("--ro-bind", f.host, `${drop?.dir}/${f.name}`);
  args.push(...(image.userns ? ["--userns", String(USERNS_FD)] : ["--unshare-user"]));
  args.push("--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try");
  if (!layout.allowInternet) args.push("--unshare-net");
  const [uid, gid] = image.userns ? [0, 0] : [image.uid, image.gid];
  args.push("--uid", String(uid), "--gid", String(gid), "--as-pid-1");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  // A nested sandbox (bwrap in the image) maps its uid 0 onto ours, and the kernel lets a new
  // user namespace map uid 0 of its parent only if its maker held CAP_SETFCAP (namespaced here:
  // it sets file capabilities that count inside this sandbox only). Switching to NESTING_UID as
  // on the host is no option: the uid map is the identity, so the image's files would stop
  // being root's.
  if (extras.nestedSandbox === true && uid === 0 && drop === null) args.push("--cap-add", "CAP_SETFCAP");
  // setpriv needs these two to change uid; the uid change itself clears every capability.
  if (drop !== null) args.push("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID");
  args.push("--hostname", "sandbox", "--chdir", "/");
  const groups = image.groups.length > 0 ? `--groups=${image.groups.join(",")}` : "--clear-groups";
  const prefix =
    drop === null
      ? []
      : [...drop.argv, `--reuid=${image.uid}`, `--regid=${image.gid}`, groups, "--inh-caps=-all", "--"];
  args.push("--", "/bin/sh", "-c", LAUNCHER_SCRIPT, "sh", cwd, ...prefix, ...command);
  return args;
}

/** Ancestors of mount points that lie on the tmpfs root (not under a system bind or another mount). */
function parentsToMake(points: readonly string[]): string[] {
  const covered = (dir: string): boolean =>
    SYSTEM_BINDS.some((b) => isWithin(dir, b)) || points.some((p) => p !== dir && isWithin(dir, p));
  const out = new Set<string>();
  for (const p of points) {
    const parts = p.split("/").filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const dir = `/${parts.slice(0, i).join("/")}`;
      if (dir !== "/home" && !covered(dir) && !points.includes(dir)) out.add(dir);
    }
  }
  return [...out].sort((a, b) => depth(a) - depth(b));
}

function depth(p: string): number {
  return p.split("/").filter(Boolean).length;
}

function tmpfsSize(extras: BwrapExecExtras): string[] {
  return extras.tmpfsBytes === undefined ? [] : ["--size", String(extras.tmpfsBytes)];
}
