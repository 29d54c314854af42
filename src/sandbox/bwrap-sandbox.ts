import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { InfraError, UserError } from "../core/errors.js";
import { type BwrapLayout, bwrapArgs, type ImageLayout } from "./bwrap-args.js";
import type { CgroupV1, LimitMode } from "./cgroup.js";
import { copyTree, type PersistentBind, resolveHostPath, safeMapToHost } from "./host-paths.js";
import { type FreshCopies, freshCopies, MountPoints, withUserns } from "./image-exec.js";
import type { FreshImageRoot } from "./image-fresh-root.js";
import { removeTreeAsync } from "./remove-tree.js";
import { type RunningHandle, type RunOutcome, runProcess } from "./run-process.js";
import { baseEnv, parseExecOptions } from "./spec.js";
import type { ExecOptions, ExecResult, Mount, Sandbox, SandboxSpec } from "./types.js";

/** Output kept from a background process (it is only read when it fails to start). */
const BACKGROUND_OUTPUT_BYTES = 64 * 1024;
const START_RETRIES = 30;
const START_RETRY_MS = 100;

export interface BwrapSandboxParts {
  id: string;
  spec: SandboxSpec;
  bwrapPath: string;
  binds: PersistentBind[];
  /** The per-sandbox cgroup, or null when limits fall back to rlimits. */
  cgroup: CgroupV1 | null;
  /** Wraps a bwrap argv so the process runs under the sandbox's limits. */
  wrap: (argv: string[]) => string[];
  /** Masks and the uid to run as (see BwrapLayout). */
  layout?: Pick<BwrapLayout, "masks" | "runAs">;
  /** Over an image: the merged root, the image's rootfs, environment and user namespace. */
  image?: {
    layout: ImageLayout;
    rootfs: string;
    env: Record<string, string>;
    /** Path of the identity user namespace to join (null: bwrap makes its own). */
    userns: (() => Promise<string>) | null;
    /** Layout and environment of an exec as another user of the image (ExecOptions.user). */
    asUser: (user: string) => { layout: ImageLayout; env: Record<string, string> };
    /** A fresh root as the image was built, for one exec (ExecOptions.imageRoot). */
    freshRoot: () => Promise<FreshImageRoot>;
  };
  /** Provider hooks: files copied in, writable mounts, stray processes, teardown before rm. */
  hooks?: {
    afterCopyIn?: (hostPath: string) => void;
    /** `owner`: the exec's own user when it names one (ExecOptions.user), else null. */
    beforeExec?: (mounts: readonly Mount[], owner: { uid: number; gid: number } | null) => void;
    killRest?: () => Promise<boolean>;
    release?: () => Promise<void>;
    /** Frees room the provider kept back on the sandbox's disk; true when it freed any. */
    freeRoom?: () => boolean;
  };
}

/** bwrap's failure to remount a host submount that came or went while it set up the binds. */
const HOST_MOUNT_RACE =
  /Can't bind mount \S+ on \S+: Unable to apply mount flags: remount "[^"]*": (Invalid argument|No such file or directory)/;

/**
 * A masked host file deleted between the mask list's check and bwrap's start: it has no mount
 * point left under the read-only system binds. The next start leaves it out.
 */
const MASK_GONE = /Can't create (file|dir) at \S+: Read-only file system/;

/** One bwrap sandbox: a state folder on the host, and one bwrap invocation per exec. */
export class BwrapSandbox implements Sandbox {
  readonly id: string;
  readonly spec: SandboxSpec;
  readonly limitMode: LimitMode;
  private readonly running = new Set<RunningHandle>();
  private closed = false;
  private readonly mountPoints: MountPoints | null;
  private readonly onClose: (() => void)[] = [];

  constructor(private readonly parts: BwrapSandboxParts) {
    this.mountPoints = parts.image === undefined ? null : new MountPoints(parts.image.layout.merged);
    this.id = parts.id;
    this.spec = parts.spec;
    this.limitMode = parts.cgroup === null ? "rlimit" : "cgroup";
  }

  /** The sandbox's cgroup folders on the host (empty under rlimits). */
  get cgroupDirs(): readonly string[] {
    return this.parts.cgroup?.dirs ?? [];
  }

  async exec(command: string | string[], options?: ExecOptions): Promise<ExecResult> {
    const r = await this.start(command, options ?? {}, false);
    const { started: _s, spawnError: _e, ...result } = r;
    return result;
  }

  async spawnBackground(
    command: string[],
    options?: Omit<ExecOptions, "timeoutSec" | "stdin">,
  ): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      let up = false;
      this.start(command, { ...options, maxOutputBytes: BACKGROUND_OUTPUT_BYTES }, true, () => {
        up = true;
        resolve();
      }).then(
        () => {
          if (!up) reject(new InfraError(`background process ${command.join(" ")} ended before it started`));
        },
        (e: unknown) => reject(e),
      );
    });
  }

  private async start(
    command: string | string[],
    options: ExecOptions,
    background: boolean,
    onStart?: () => void,
  ): Promise<RunOutcome> {
    if (this.closed) throw new UserError(`sandbox ${this.id} is closed`);
    const parsed = parseExecOptions(options);
    const argv = typeof command === "string" ? ["bash", "-lc", command] : command;
    if (argv.length === 0) throw new UserError("exec: empty command");
    for (const m of parsed.mounts) {
      if (!existsSync(m.hostPath)) throw new UserError(`mount source ${m.hostPath} does not exist`);
    }
    // The sandbox's own binds join every exec; one whose source the host has since removed (a
    // model gateway's folder after its agent phase) is left out rather than failing the exec.
    const lifetime = (this.spec.mounts ?? []).filter((m) => existsSync(m.hostPath));
    const o = lifetime.length === 0 ? parsed : { ...parsed, mounts: [...lifetime, ...parsed.mounts] };
    const image = this.parts.image;
    if (o.user !== undefined && image === undefined) {
      throw new UserError(
        `exec as user ${o.user}: only a sandbox over an image runs commands as another user`,
      );
    }
    const as = o.user === undefined || image === undefined ? null : image.asUser(o.user);
    this.parts.hooks?.beforeExec?.(o.mounts, as?.layout ?? null);
    // Mount points are made in the fresh root, which is thrown away after the exec.
    const pristine = o.imageRoot === true && image !== undefined ? await image.freshRoot() : null;
    let fresh: FreshCopies | null;
    try {
      fresh = image === undefined ? null : await freshCopies(image.rootfs, o.freshDirs, this.spec.stateDir);
    } catch (e) {
      await pristine?.remove();
      throw e;
    }
    const points =
      pristine !== null
        ? []
        : (this.mountPoints?.claim([
            ...o.mounts.map((m) => ({
              sandboxPath: m.sandboxPath,
              folder: statSync(m.hostPath).isDirectory(),
            })),
            ...o.freshDirs.map((d) => ({ sandboxPath: d, folder: true })),
          ]) ?? []);
    const layout = as?.layout ?? image?.layout ?? null;
    try {
      // Built again for a retried start: the host's masks are re-checked each time (see run).
      const build = async (): Promise<string[]> => {
        const inner = bwrapArgs(
          this.parts.bwrapPath,
          {
            binds: this.parts.binds,
            allowInternet: this.spec.allowInternet,
            ...this.parts.layout,
            image: layout !== null && pristine !== null ? { ...layout, merged: pristine.merged } : layout,
          },
          pristine === null ? o.mounts : [...pristine.mounts, ...o.mounts],
          o.cwd ?? this.spec.workdir,
          argv,
          {
            freshDirs: o.freshDirs,
            nestedSandbox: o.nestedSandbox,
            freshSources: fresh?.sources,
            ...(supportsTmpfsSize(this.parts.bwrapPath)
              ? { tmpfsBytes: freshTmpfsBytes(this.spec.memoryMb) }
              : {}),
          },
        );
        return image?.userns != null ? withUserns(await image.userns(), inner) : inner;
      };
      const env = image === undefined ? baseEnv(o.env) : { ...(as?.env ?? image.env), ...o.env };
      return await this.run(build, env, o, background, onStart);
    } finally {
      await fresh?.remove();
      await pristine?.remove();
      this.mountPoints?.release(points);
    }
  }

  private async run(
    build: () => Promise<string[]>,
    env: Record<string, string>,
    o: ReturnType<typeof parseExecOptions>,
    background: boolean,
    onStart?: () => void,
  ): Promise<RunOutcome> {
    for (let attempt = 0; ; attempt++) {
      const r = await runProcess(
        {
          argv: this.parts.wrap(await build()),
          env,
          ...(background ? {} : { stdin: o.stdin, timeoutSec: o.timeoutSec }),
          signal: o.signal,
          maxOutputBytes: o.maxOutputBytes,
          onStart,
        },
        (h) => {
          this.running.add(h);
          return () => this.running.delete(h);
        },
      );
      if (r.spawnError !== null) {
        throw new InfraError(`could not start bwrap (${this.parts.bwrapPath}): ${r.spawnError.message}`, {
          cause: r.spawnError,
        });
      }
      // Killed before it came up (timeout, abort, killAll) is an ordinary killed result.
      if (r.started || r.signal !== null) return r;
      // The kernel releases a finished exec's pid namespace up to ~1.5 s late, and its pids stay
      // charged to the sandbox's cgroup meanwhile: right after a busy exec, bwrap may be refused a
      // fork. That is the sandbox being full, not broken, so wait for the charge to drain.
      // The system binds are recursive: a mount the host adds or drops under them while bwrap
      // remounts each submount read-only (a container starting under /var/lib/docker) makes that
      // remount fail with EINVAL or ENOENT. The host changed under it, so try again.
      // No room left on the sandbox's disk for a mount point bwrap makes (the agent filled its
      // quota): the room kept back for this is freed, once.
      const roomFreed = /No space left on device/.test(r.stderr) && this.parts.hooks?.freeRoom?.() === true;
      if (
        attempt < START_RETRIES &&
        (roomFreed ||
          /Resource temporarily unavailable|Can't fork/.test(r.stderr) ||
          HOST_MOUNT_RACE.test(r.stderr) ||
          MASK_GONE.test(r.stderr))
      ) {
        await new Promise((res) => setTimeout(res, START_RETRY_MS));
        continue;
      }
      const detail = r.stderr.trim().split("\n").slice(-3).join(" | ") || `exit code ${r.exitCode}`;
      throw new InfraError(`sandbox ${this.id} did not start: ${detail}`);
    }
  }

  async upload(hostPath: string, sandboxPath: string): Promise<void> {
    if (!existsSync(hostPath)) throw new UserError(`upload: ${hostPath} does not exist`);
    const to = resolveHostPath(this.parts.binds, sandboxPath);
    await copyTree(hostPath, to);
    this.parts.hooks?.afterCopyIn?.(to);
  }

  async download(sandboxPath: string, hostPath: string): Promise<void> {
    const from = resolveHostPath(this.parts.binds, sandboxPath);
    try {
      await lstat(from);
    } catch {
      throw new UserError(`download: ${sandboxPath} does not exist in sandbox ${this.id}`);
    }
    await copyTree(from, hostPath);
  }

  hostPathOf(sandboxPath: string): string | null {
    return safeMapToHost(this.parts.binds, sandboxPath);
  }

  async killAll(): Promise<void> {
    const handles = [...this.running];
    for (const h of handles) h.kill();
    await Promise.all(handles.map((h) => h.done));
    // Belt and braces: anything still charged to the sandbox's cgroup dies too.
    if (this.parts.cgroup !== null && !(await this.parts.cgroup.killAll())) {
      throw new InfraError(`sandbox ${this.id}: processes survived killAll`);
    }
    if (this.parts.hooks?.killRest !== undefined && !(await this.parts.hooks.killRest())) {
      throw new InfraError(`sandbox ${this.id}: processes survived killAll`);
    }
  }

  /** Runs `f` at close, before the provider's teardown (e.g. to stop a watchdog). */
  onRelease(f: () => void): void {
    this.onClose.push(f);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.killAll();
    } finally {
      await this.parts.cgroup?.remove();
      for (const f of this.onClose) f();
      await this.parts.hooks?.release?.();
      await removeTreeAsync(this.spec.stateDir);
    }
  }
}

/**
 * The size cap of each fresh folder made as a tmpfs (a host task verifier's /tmp and /root, where
 * a sealed program's outputs are staged): half of memory_mb. Under cgroups their pages are charged
 * to the sandbox and cannot be reclaimed, so an output folder that filled the limit left the
 * grader no memory to read it (the grader, then its fallback, were killed: a grading error of the
 * agent's choosing); under the rlimit fallback no limit sees them at all.
 */
export function freshTmpfsBytes(memoryMb: number): number {
  return Math.max(1, Math.floor(memoryMb / 2)) * 1024 * 1024;
}

const tmpfsSizeSupport = new Map<string, boolean>();

/** Whether this bwrap takes --size (0.8 and later), asked once per binary. */
function supportsTmpfsSize(bwrapPath: string): boolean {
  let known = tmpfsSizeSupport.get(bwrapPath);
  if (known === undefined) {
    const r = spawnSync(bwrapPath, ["--help"], { encoding: "utf8", timeout: 10_000 });
    known = `${r.stdout ?? ""}${r.stderr ?? ""}`.includes("--size");
    tmpfsSizeSupport.set(bwrapPath, known);
  }
  return known;
}
