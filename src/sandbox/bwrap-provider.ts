import { randomBytes } from "node:crypto";
import {
  accessSync,
  constants,
  existsSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { InfraError, UserError } from "../core/errors.js";
import { SYSTEM_BINDS } from "./bwrap-args.js";
import { createImageSandbox } from "./bwrap-image.js";
import { BwrapSandbox } from "./bwrap-sandbox.js";
import { CgroupV1, cgroupName } from "./cgroup.js";
import { copyTree, type PersistentBind } from "./host-paths.js";
import { maskArgs, unreadablePaths } from "./host-secrets.js";
import { ensureRootfs } from "./image/rootfs-cache.js";
import type { ImageRef } from "./image/types.js";
import { watchUidMemory } from "./memory-watch.js";
import { runProcess } from "./run-process.js";
import { allocateSandboxUid, chownTree, identityFiles, killUid } from "./sandbox-user.js";
import { baseEnv, parseSandboxSpec } from "./spec.js";
import { diskUsage, mountStorage, releaseStorage } from "./storage.js";
import { defaultRegistryDir, writeRecord } from "./sweep.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "./types.js";

/** The smallest root a probe needs: /usr, and the merged-/usr links (or folders) beside it. */
const PROBE_LAYOUT: readonly string[] = [
  "--tmpfs",
  "/",
  "--ro-bind",
  "/usr",
  "/usr",
  ...["bin", "lib", "lib64", "sbin"].flatMap((d) => {
    let target: string | null = null;
    try {
      target = readlinkSync(`/${d}`);
    } catch {
      // Not a link (or absent): bound as it is when it exists.
    }
    return target !== null ? ["--symlink", target, `/${d}`] : ["--ro-bind-try", `/${d}`, `/${d}`];
  }),
];

export { sweepStaleSandboxes } from "./sweep.js";

export const BWRAP_INSTALL_HINT = "bubblewrap (bwrap) is not installed: run `apt-get install -y bubblewrap`";

export interface BwrapProviderOptions {
  /** The bwrap binary: a name looked up on PATH, or a path (default "bwrap"). */
  bwrapPath?: string;
  /**
   * How memory and process limits are enforced. "auto" (default) uses a cgroup per sandbox and
   * falls back to rlimits with a warning; "cgroup" refuses to run without cgroups; "rlimit"
   * uses prlimit only (weaker, see docs/sandbox.md).
   */
  limits?: "auto" | "cgroup" | "rlimit";
  /** Where cgroup v1 hierarchies are mounted (default $LONGHAUL_CGROUP_ROOT, else /sys/fs/cgroup). */
  cgroupRoot?: string;
  /** Cover host files under the system binds that only root may read (default true). */
  maskHostSecrets?: boolean;
  /** Disk quota: "auto" loop-mounts an image when possible, "watch" only polls usage (default auto). */
  storage?: "auto" | "watch";
  /** Poll interval of the disk-usage watchdog in ms (default 1000). */
  storageCheckMs?: number;
  /** Where live sandboxes are recorded for sweepStaleSandboxes (default tmpdir/longhaul-sandboxes). */
  registryDir?: string;
  /**
   * The root file system of an image, as a host folder that is never written (the image rootfs
   * cache: exported once per image id). Needed for specs with an image.
   */
  rootfsFor?: (image: ImageRef) => Promise<string>;
  /** Per-sandbox layer over an image's rootfs: "auto" (overlayfs, else a copy) or "copy". */
  imageLayer?: "auto" | "copy";
  /** Receives warnings such as the rlimit fallback (default: one line on stderr per message). */
  onWarning?: (message: string) => void;
}

const warned = new Set<string>();
function warnOnceOnStderr(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.stderr.write(`warning: ${message}\n`);
}

/** Local sandboxes with bubblewrap: fast (~20 ms per exec), no daemon, no image. */
export class BwrapProvider implements SandboxProvider {
  readonly name = "bwrap";
  private readonly options: BwrapProviderOptions;
  private resolved: string | null = null;
  private readonly warnedKinds = new Set<string>();

  constructor(options: BwrapProviderOptions = {}) {
    this.options = options;
  }

  /** The bwrap binary's absolute path; UserError with the install command when it is missing. */
  bwrapBinary(): string {
    if (this.resolved !== null) return this.resolved;
    const name = this.options.bwrapPath ?? "bwrap";
    const candidates = isAbsolute(name) || name.includes("/") ? [name] : searchPath(name);
    const found = candidates.find(isExecutableFile);
    if (found === undefined) throw new UserError(BWRAP_INSTALL_HINT);
    this.resolved = found;
    return found;
  }

  async check(): Promise<void> {
    const bwrap = this.bwrapBinary();
    // A binary that cannot make namespaces here (no user namespaces, seccomp) fails this smoke run.
    // Only /usr is bound: binding the whole root would also bind every container's overlay under
    // /var/lib/docker, and one torn down meanwhile fails the bind for reasons unrelated to bwrap.
    const r = await runProcess(
      {
        argv: [bwrap, ...PROBE_LAYOUT, "--unshare-all", "--cap-drop", "ALL", "--", "/usr/bin/true"],
        env: baseEnv({}),
        maxOutputBytes: 4096,
        timeoutSec: 30,
      },
      () => () => undefined,
    );
    if (r.spawnError !== null || r.exitCode !== 0) {
      const why = r.spawnError?.message ?? (r.stderr.trim() || `exit code ${r.exitCode}`);
      throw new UserError(`bubblewrap (${bwrap}) cannot create a sandbox on this machine: ${why}`);
    }
    // No scan of root-only host paths here: only a sandbox rooted on the host's own folders
    // needs it (one over an image sees none of them), so the first such sandbox does it, once a
    // process (0.7–1.8 s of CPU over a full /usr), and a job of image tasks never does.
  }

  async create(input: SandboxSpec): Promise<Sandbox> {
    const spec = parseSandboxSpec(input);
    const bwrapPath = this.bwrapBinary();
    const id = `sbx-${randomBytes(5).toString("hex")}`;
    if (existsSync(spec.stateDir) && readdirSync(spec.stateDir).length > 0) {
      throw new UserError(`sandbox state folder ${spec.stateDir} exists and is not empty`);
    }
    if (spec.environmentDir !== null && !isDirectory(spec.environmentDir)) {
      throw new UserError(`environment folder ${spec.environmentDir} does not exist or is not a folder`);
    }
    if (spec.image != null) return this.createOverImage(id, { ...spec, image: spec.image }, bwrapPath);
    if (spec.user != null) {
      throw new UserError(`sandbox user ${spec.user}: only a sandbox over an image has users of its own`);
    }
    const scan = this.options.maskHostSecrets === false ? null : await unreadablePaths(SYSTEM_BINDS);
    // The identity files' binds; the secret masks are listed again at each exec, because a sandbox
    // lives for hours and a masked host file deleted meanwhile (a rotated log, a temporary key)
    // has no mount point left: covering it would stop every later exec.
    const identity: string[] = [];
    const masks = (): string[] => [...(scan === null ? [] : maskArgs(scan)), ...identity];
    const limits = await this.limitsFor(id, spec);
    const runAs = limits.runAs;
    const registry = this.options.registryDir ?? defaultRegistryDir();
    const record = writeRecord(registry, id, {
      ownerPid: process.pid,
      stateDir: spec.stateDir,
      uid: runAs?.uid ?? null,
    });
    let watchdog: NodeJS.Timeout | undefined;
    // Without cgroups, the sandbox's own uid is what its memory is counted by.
    const memory =
      runAs === null
        ? null
        : watchUidMemory(runAs.uid, spec.memoryMb * 1024 * 1024, (pid, total) =>
            this.warn(
              `sandbox ${id} used ${Math.round(total / 2 ** 20)} MB of its ${spec.memoryMb} MB: process ${pid} killed`,
            ),
          );
    const release = async (): Promise<void> => {
      clearInterval(watchdog);
      memory?.stop();
      const err = await releaseStorage(spec.stateDir);
      if (err !== null) this.warn(`sandbox ${id}: could not unmount ${spec.stateDir}: ${err}`);
      rmSync(record, { force: true });
    };
    const dirs = {
      app: join(spec.stateDir, "app"),
      logs: join(spec.stateDir, "logs"),
      tmp: join(spec.stateDir, "tmp"),
      home: join(spec.stateDir, "home"),
    };
    let storage: "loop" | "watch" | null = null;
    try {
      if (spec.storageMb !== undefined) {
        const why =
          this.options.storage === "watch"
            ? "watch mode was chosen"
            : await mountStorage(spec.stateDir, spec.storageMb);
        storage = why === null ? "loop" : "watch";
        if (why !== null)
          this.warnOnce(
            "disk-quota",
            `sandbox disk quota is checked every second, not enforced by a filesystem (${why})`,
          );
      }
      for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
      await mkdir(join(dirs.logs, "agent"));
      await mkdir(join(dirs.logs, "verifier"));
      await chmod(dirs.tmp, 0o1777);
      if (spec.environmentDir !== null) await copyTree(spec.environmentDir, dirs.app);
      if (runAs !== null) {
        for (const d of Object.values(dirs)) chownTree(d, runAs.uid, runAs.gid);
        const ids = identityFiles(runAs.uid, runAs.gid);
        const idDir = join(spec.stateDir, "identity");
        await mkdir(idDir);
        writeFileSync(join(idDir, "passwd"), ids.passwd, { mode: 0o644 });
        writeFileSync(join(idDir, "group"), ids.group, { mode: 0o644 });
        identity.push(
          "--ro-bind",
          join(idDir, "passwd"),
          "/etc/passwd",
          "--ro-bind",
          join(idDir, "group"),
          "/etc/group",
        );
      }
    } catch (e) {
      await limits.cgroup?.remove();
      await release();
      throw new InfraError(`cannot prepare sandbox state folder ${spec.stateDir}: ${String(e)}`, {
        cause: e,
      });
    }
    const binds: PersistentBind[] = [
      { sandboxRoot: spec.workdir, hostRoot: dirs.app },
      { sandboxRoot: "/logs", hostRoot: dirs.logs },
      { sandboxRoot: "/tmp", hostRoot: dirs.tmp },
      { sandboxRoot: "/root", hostRoot: dirs.home },
    ];
    const give = (p: string): void => {
      if (runAs !== null) chownTree(p, runAs.uid, runAs.gid);
    };
    const sandbox = new BwrapSandbox({
      id,
      spec,
      bwrapPath,
      binds,
      cgroup: limits.cgroup,
      wrap: limits.wrap,
      layout: { masks, runAs },
      hooks: {
        afterCopyIn: give,
        // A writable per-exec mount is handed to the sandbox's uid, or it could not write there.
        beforeExec: (mounts) => {
          for (const m of mounts) if (!m.readonly) give(m.hostPath);
        },
        ...(runAs === null ? {} : { killRest: () => killUid(runAs.uid) }),
        release,
      },
    });
    if (storage === "watch") watchdog = this.watchDisk(sandbox);
    return sandbox;
  }

  /** Over an image (see bwrap-image.ts): the host's system folders and masks play no part. */
  private async createOverImage(id: string, spec: SandboxSpec & { image: ImageRef }, bwrapPath: string) {
    // The image's root file system, exported once per image id and cached (see docs/images.md).
    const rootfs = await (this.options.rootfsFor ?? ensureRootfs)(spec.image);
    const limits = await this.limitsFor(id, spec, true);
    const made = await createImageSandbox({
      id,
      spec,
      bwrapPath,
      rootfs,
      cgroup: limits.cgroup,
      wrap: limits.wrap,
      registryDir: this.options.registryDir ?? defaultRegistryDir(),
      storage: this.options.storage ?? "auto",
      layer: this.options.imageLayer ?? "auto",
      warn: (m) => this.warn(m),
    });
    if (made.storage === "watch") {
      const watchdog = this.watchDisk(made.sandbox);
      made.sandbox.onRelease(() => clearInterval(watchdog));
    }
    return made.sandbox;
  }

  /** Polls the state folder's usage and kills the sandbox's processes when it is over its quota. */
  private watchDisk(sandbox: BwrapSandbox): NodeJS.Timeout {
    const { spec, id } = sandbox;
    const limit = (spec.storageMb ?? 0) * 1024 * 1024;
    const watchdog = setInterval(() => {
      if (diskUsage(spec.stateDir, limit) <= limit) return;
      this.warn(`sandbox ${id} is over its ${spec.storageMb} MB disk quota: its processes are killed`);
      sandbox.killAll().catch(() => undefined);
    }, this.options.storageCheckMs ?? 1000);
    watchdog.unref();
    return watchdog;
  }

  private warn(message: string): void {
    (this.options.onWarning ?? warnOnceOnStderr)(message);
  }

  /**
   * A warning about the host rather than one sandbox, given once per provider (one job): its text
   * can still differ per sandbox (a cgroup error names the sandbox's own folder), so it is keyed
   * by kind, not by message.
   */
  private warnOnce(kind: string, message: string): void {
    if (this.warnedKinds.has(kind)) return;
    this.warnedKinds.add(kind);
    this.warn(message);
  }

  /**
   * `overImage`: no uid of its own under rlimits. The image's files keep their owners, so the
   * commands run as the image's user, and the process cap holds only when that is not root.
   */
  private async limitsFor(id: string, spec: SandboxSpec, overImage = false): Promise<Limits> {
    const mode = this.options.limits ?? "auto";
    let reason = "rlimit mode was chosen";
    if (mode !== "rlimit") {
      const made = await CgroupV1.create(cgroupName(id), spec, this.options.cgroupRoot);
      if (typeof made !== "string") return { cgroup: made, wrap: (argv) => made.wrap(argv), runAs: null };
      if (mode === "cgroup") throw new UserError(`sandbox limits need cgroups: ${made}`);
      reason = made;
    }
    const prlimit = searchPath("prlimit").find(isExecutableFile);
    const setpriv = searchPath("setpriv").find(isExecutableFile);
    if (prlimit === undefined) {
      this.warnOnce(
        "limits",
        `sandbox memory and process limits are NOT enforced (${reason}; prlimit not found)`,
      );
      return { cgroup: null, wrap: (argv) => argv, runAs: null };
    }
    // As root the process cap only holds for a uid other than root (see sandbox-user.ts).
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot && setpriv !== undefined && !overImage ? allocateSandboxUid() : null;
    const runAs = uid === null || setpriv === undefined ? null : { uid, gid: uid, setpriv };
    if (mode !== "rlimit" || (asRoot && runAs === null && !overImage)) {
      this.warnOnce(
        "limits",
        `sandbox limits fall back to rlimits (${reason}): memory is capped per process, not per sandbox` +
          (asRoot && runAs === null ? ", and without setpriv the process cap does not apply to root" : "") +
          "; see docs/sandbox.md",
      );
    }
    const bytes = spec.memoryMb * 1024 * 1024;
    const fsize = spec.storageMb === undefined ? [] : [`--fsize=${spec.storageMb * 1024 * 1024}`];
    return {
      cgroup: null,
      wrap: (argv) => [prlimit, `--nproc=${spec.pidsMax}`, `--data=${bytes}`, ...fsize, "--", ...argv],
      runAs,
    };
  }
}

interface Limits {
  cgroup: CgroupV1 | null;
  wrap: (argv: string[]) => string[];
  runAs: { uid: number; gid: number; setpriv: string } | null;
}

function searchPath(name: string): string[] {
  return (process.env.PATH ?? "/usr/bin:/bin")
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name));
}

function isExecutableFile(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
