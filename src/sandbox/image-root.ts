import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { errorMessage, InfraError, UserError } from "../core/errors.js";
import { hostCommandError } from "./host-command.js";
import type { ImageConfig } from "./image/types.js";
import { isMountPoint } from "./storage.js";

/**
 * The root file system of a sandbox over an image: a writable layer over the read-only cached
 * rootfs, so the whole root persists across execs (like a container) and the cache is never
 * written. As root that is an overlayfs mounted once per sandbox (~15 ms, copy-on-write); where
 * overlayfs is refused (not root, an upper folder on a file system overlayfs cannot use) it is a
 * full copy of the rootfs (reflinked where the file system can).
 */
export interface ImageRoot {
  /** Host folder shown as / inside the sandbox. */
  merged: string;
  kind: "overlay" | "copy";
}

const run = (argv: readonly string[]): Promise<string | null> => hostCommandError(argv, 300_000);

/**
 * Makes `stateDir`/root (upper, work, merged) over `rootfs`. `onFallback` hears why a copy was
 * made instead of an overlay.
 */
export async function mountImageRoot(
  rootfs: string,
  stateDir: string,
  mode: "auto" | "copy",
  onFallback: (why: string) => void,
): Promise<ImageRoot> {
  const base = join(stateDir, "root");
  const merged = join(base, "merged");
  mkdirSync(merged, { recursive: true });
  let why = mode === "copy" ? "copy mode was chosen" : null;
  if (why === null && process.getuid?.() !== 0) why = "not running as root";
  if (why === null) {
    const upper = join(base, "upper");
    const work = join(base, "work");
    mkdirSync(upper);
    mkdirSync(work);
    // nodev: device nodes come only from bwrap's own /dev. Commas or colons in the paths would
    // split the option string; state folders never have them.
    const opts = `lowerdir=${rootfs},upperdir=${upper},workdir=${work},nodev`;
    why = await run(["mount", "-t", "overlay", "overlay", "-o", opts, merged]);
    if (why === null) return { merged, kind: "overlay" };
    why = `overlayfs refused: ${why}`;
  }
  onFallback(`the image's root file system is copied for this sandbox, not layered (${why})`);
  const err = await run(["cp", "-a", "--reflink=auto", `${rootfs}/.`, merged]);
  if (err !== null) throw new InfraError(`cannot copy the image root file system ${rootfs}: ${err}`);
  return { merged, kind: "copy" };
}

/** Unmounts an overlay root (lazily if still busy); null or why it could not. */
export async function unmountImageRoot(root: ImageRoot): Promise<string | null> {
  if (root.kind !== "overlay" || !isMountPoint(root.merged)) return null;
  const err = await run(["umount", root.merged]);
  return err === null ? null : await run(["umount", "-l", root.merged]);
}

/** Mount points at or below `dir` in this mount namespace, deepest first. */
export function mountsUnder(dir: string): string[] {
  const top = dir.replace(/\/+$/, "");
  let lines: string[] = [];
  try {
    lines = readFileSync("/proc/self/mountinfo", "utf8").split("\n");
  } catch {
    return [];
  }
  return lines
    .map((l) => l.split(" ")[4]?.replace(/\\040/g, " "))
    .filter((p): p is string => p !== undefined && (p === top || p.startsWith(`${top}/`)))
    .sort((a, b) => b.length - a.length);
}

/** Unmounts every mount below `dir` (not `dir` itself), lazily when busy. */
export function unmountUnder(dir: string): void {
  for (const p of mountsUnder(dir)) {
    if (p === dir.replace(/\/+$/, "")) continue;
    if (run(["umount", p]) !== null) run(["umount", "-l", p]);
  }
}

export interface ImageUser {
  uid: number;
  gid: number;
  /** Supplementary groups: the image's /etc/group entries that list the user. */
  groups: number[];
  name: string;
  home: string;
}

interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

function readTable(path: string): string[][] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
      .map((l) => l.split(":"));
  } catch {
    return [];
  }
}

function passwd(root: string): PasswdEntry[] {
  return readTable(join(root, "etc", "passwd")).map((f) => ({
    name: f[0] ?? "",
    uid: Number(f[2]),
    gid: Number(f[3]),
    home: f[5] || "/",
  }));
}

/**
 * The image's USER as ids, looked up in the image's own /etc/passwd and /etc/group (like docker):
 * `name`, `uid`, `name:group` or `uid:gid`. Null user: root.
 */
export function resolveImageUser(root: string, user: string | null): ImageUser {
  const spec = user === null || user.trim() === "" ? "root" : user.trim();
  const [u = "root", g] = spec.split(":");
  const users = passwd(root);
  const byName = users.find((e) => e.name === u);
  const byUid = /^\d+$/.test(u) ? users.find((e) => e.uid === Number(u)) : undefined;
  const entry = byName ?? byUid;
  if (entry === undefined && !/^\d+$/.test(u)) {
    throw new UserError(`image user ${u} is not in the image's /etc/passwd`);
  }
  const uid = entry?.uid ?? Number(u);
  let gid = entry?.gid ?? uid;
  if (g !== undefined && g !== "") {
    if (/^\d+$/.test(g)) gid = Number(g);
    else {
      const row = readTable(join(root, "etc", "group")).find((f) => f[0] === g);
      if (row === undefined) throw new UserError(`image group ${g} is not in the image's /etc/group`);
      gid = Number(row[2]);
    }
  }
  const name = entry?.name ?? u;
  const groups = readTable(join(root, "etc", "group"))
    .filter((f) => (f[3] ?? "").split(",").includes(name))
    .map((f) => Number(f[2]))
    .filter((n) => Number.isInteger(n) && n !== gid);
  return { uid, gid, groups, name, home: entry?.home ?? (uid === 0 ? "/root" : "/") };
}

/**
 * The environment a command over the image starts from: what a container of the image would get
 * (HOME and USER of the image user, the image's ENV), before the exec's own variables.
 */
export function imageBaseEnv(config: ImageConfig, user: ImageUser): Record<string, string> {
  return {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: user.home,
    USER: user.name,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    ...config.env,
  };
}

/**
 * Files a container runtime writes into every container: docker export leaves /etc/hosts and
 * /etc/resolv.conf empty (they are mounts in a container). apt is told not to drop to its _apt
 * user, which needs capabilities a sandboxed root does not have.
 */
export function seedImageRoot(
  merged: string,
  allowInternet: boolean,
  resolve: (sandboxPath: string) => string | null,
): void {
  // Only regular files (or missing ones) inside the root are written: a link in the image must
  // never lead a write out to the host.
  const writable = (sandboxPath: string): { path: string; empty: boolean } | null => {
    const p = resolve(sandboxPath);
    if (p === null || !existsSync(join(merged, "etc"))) return null;
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st === undefined) return existsSync(dirname(p)) ? { path: p, empty: true } : null;
    return st.isFile() ? { path: p, empty: st.size === 0 } : null;
  };
  const hosts = writable("/etc/hosts");
  if (hosts?.empty === true) {
    writeFileSync(hosts.path, "127.0.0.1\tlocalhost sandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n");
  }
  const resolv = writable("/etc/resolv.conf");
  if (allowInternet && resolv?.empty === true && existsSync("/etc/resolv.conf")) {
    writeFileSync(resolv.path, readFileSync("/etc/resolv.conf"));
  }
  const apt = writable("/etc/apt/apt.conf.d/00longhaul-sandbox");
  if (apt !== null) writeFileSync(apt.path, 'APT::Sandbox::User "root";\n');
}

/**
 * A user namespace that maps every uid and gid to itself, made once per process and shared by
 * every image sandbox. bwrap can switch to the image's USER only inside a user namespace; with
 * the identity map, files keep their real owners (root's files are root's, the image user's are
 * the user's), as in a container. A `sleep` holds the namespace; it dies with this process.
 */
let holder: ChildProcess | null = null;
let starting: Promise<string> | null = null;

export function identityUsernsPath(): Promise<string> {
  const pid = holder?.pid;
  if (holder !== null && pid !== undefined && holder.exitCode === null && holder.signalCode === null) {
    return Promise.resolve(`/proc/${pid}/ns/user`);
  }
  starting ??= startHolder().finally(() => {
    starting = null;
  });
  return starting;
}

async function startHolder(): Promise<string> {
  const child = spawn("setpriv", ["--pdeathsig", "KILL", "unshare", "--user", "sleep", "infinity"], {
    stdio: "ignore",
  });
  child.unref();
  child.on("error", () => undefined);
  const cpid = child.pid;
  if (cpid === undefined) throw new InfraError("cannot start the user namespace holder (setpriv, unshare)");
  try {
    // The child is in its namespace once /proc shows a namespace other than ours.
    const own = readLink("/proc/self/ns/user");
    for (let i = 0; i < 400 && readLink(`/proc/${cpid}/ns/user`) === own; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    if (readLink(`/proc/${cpid}/ns/user`) === own) throw new Error("namespace not made in time");
    writeFileSync(`/proc/${cpid}/uid_map`, "0 0 4294967295\n");
    writeFileSync(`/proc/${cpid}/gid_map`, "0 0 4294967295\n");
  } catch (e) {
    child.kill("SIGKILL");
    throw new InfraError(`cannot make the identity user namespace: ${errorMessage(e)}`, { cause: e });
  }
  holder = child;
  return `/proc/${cpid}/ns/user`;
}

function readLink(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return "";
  }
}
