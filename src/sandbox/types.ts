import type { ImageRef } from "./image/types.js";

/**
 * The sandbox provider interface: one extension point, many providers (bwrap is the default;
 * docker and others implement the same contract and pass the same conformance suite).
 *
 * A sandbox is a long-lived environment for one trial. Each `exec` starts fresh processes inside
 * it; files under the workdir, /logs, /tmp and /root persist between execs for the sandbox's life.
 */
export interface Mount {
  hostPath: string;
  sandboxPath: string;
  readonly: boolean;
}

export interface ExecOptions {
  /** Wall-clock limit; on expiry every process of this exec is killed. */
  timeoutSec?: number;
  env?: Record<string, string>;
  /** Working directory inside the sandbox; defaults to the sandbox workdir. */
  cwd?: string;
  stdin?: string;
  /** Per-stream capture cap in bytes (default 1 MiB); the rest is dropped and `truncated` set. */
  maxOutputBytes?: number;
  /** Extra binds for this exec only (e.g. /tests for the verifier, /solution for the oracle). */
  mounts?: Mount[];
  /** Aborting kills every process of this exec. */
  signal?: AbortSignal;
  /**
   * Folders that start empty for this exec only and vanish with it (e.g. ["/root", "/tmp"] so
   * the verifier starts without anything the agent left in its home or /tmp). They hide the
   * persistent folder of the same path for this exec; other execs still see that folder.
   */
  freshDirs?: string[];
  /**
   * This exec may build sandboxes of its own (the grader kit's sealed-run nests bwrap). The
   * command still gets no capabilities; a provider that cannot allow it throws a UserError.
   */
  nestedSandbox?: boolean;
  /**
   * Over an image: run this exec on a fresh copy of the image's root file system, not on the
   * sandbox's own root that earlier execs (the agent) changed. The sandbox's workdir is laid over
   * it, writable, and the sandbox's own root is shown read-only at AGENT_ROOT_DIR (the verifier
   * kit's sealed runner shows its system folders to the agent's programs). The verifier's choice
   * for tasks with `[verifier] root = "image"` and for host tasks. Docker runs it in a container of its own made
   * from the image; bwrap sandboxes not over an image ignore it.
   */
  imageRoot?: boolean;
  /**
   * Run this exec as another user of the image (name or uid, looked up in the image's
   * /etc/passwd like `docker exec -u`): the verifier's `[verifier] user`. Only sandboxes over an
   * image take it; others throw a UserError.
   */
  user?: string;
}

export interface ExecResult {
  /** null when the process was killed by a signal or a timeout. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationSec: number;
}

/** What a sandbox is created with: image or host root, mounts, limits, network. */
export interface SandboxSpec {
  /** Host folder whose contents are copied fresh into the workdir (null: empty workdir). */
  environmentDir: string | null;
  /** Absolute path of the workdir inside the sandbox, default /app. */
  workdir: string;
  memoryMb: number;
  cpus: number;
  /** Maximum number of processes/threads; contains fork bombs. */
  pidsMax: number;
  allowInternet: boolean;
  /**
   * Disk quota in MiB for the persistent folders together (workdir, /logs, /tmp, /root);
   * absent: no quota.
   */
  storageMb?: number;
  /** Host folder the provider may use for this sandbox's state; removed on close unless kept. */
  stateDir: string;
  /**
   * Run over this container image (a task with environment/Dockerfile or docker_image) instead
   * of the host's system folders (bwrap) or the provider's default image (docker). Absent or
   * null: no task image.
   */
  image?: ImageRef | null;
  /**
   * Commands will build sandboxes of their own (ExecOptions.nestedSandbox: the grader kit's
   * sealed-run). Providers that must loosen their confinement for that (docker) do so only then.
   */
  nesting?: boolean;
  /**
   * The user every exec runs as unless it names its own (a task's `[agent] user`), instead of
   * the image's USER. Only sandboxes over an image take it; others throw a UserError.
   */
  user?: string | null;
  /**
   * Binds present for the sandbox's whole life, in every exec (the verifier's too), decided
   * before it starts: what a provider cannot add to one exec later (docker binds only at
   * container creation; a copy cannot carry a unix socket). A bind whose host source is removed
   * while the sandbox lives shows up empty (docker) or not at all (bwrap).
   */
  mounts?: Mount[];
}

/** One isolated environment: run commands in it, copy files in and out, then destroy it. */
export interface Sandbox {
  readonly id: string;
  readonly spec: SandboxSpec;
  /**
   * False when this sandbox refuses `nestedSandbox` (docker, unless its spec asked for
   * `nesting`: its seccomp profile forbids user namespaces). Absent: nesting is allowed. Callers that merely prefer nesting check this first.
   */
  readonly nestingAllowed?: boolean;
  /** `command` is an argv array, or a string run with `bash -lc`. */
  exec(command: string | string[], options?: ExecOptions): Promise<ExecResult>;
  /** Copy a host file or folder to a path inside the sandbox. */
  upload(hostPath: string, sandboxPath: string): Promise<void>;
  /** Copy a file or folder out of the sandbox; throws if it does not exist. */
  download(sandboxPath: string, hostPath: string): Promise<void>;
  /** Kill every process still running in the sandbox (end of a phase). */
  killAll(): Promise<void>;
  /**
   * Start a long-running process (e.g. a tmux server) that lives until killAll/close, or until
   * `signal` aborts (which ends it and what it started, nothing else; already aborted: nothing
   * starts and the call rejects). `nestedSandbox` is taken or refused as for an exec.
   * Returns once it has been spawned.
   */
  spawnBackground?(command: string[], options?: Omit<ExecOptions, "timeoutSec" | "stdin">): Promise<void>;
  /**
   * Host path of a sandbox path when the provider keeps it on the host (bwrap); else null. Null
   * too when an ancestor is a symlink leading out of its folder; the last component is not
   * resolved, so lstat it before following it (the sandbox's processes may have replaced it).
   */
  hostPathOf?(sandboxPath: string): string | null;
  close(): Promise<void>;
}

/** Makes sandboxes of one kind (bwrap, docker, …); `check` says whether this host can. */
export interface SandboxProvider {
  readonly name: string;
  /** Throws a UserError saying how to install what is missing. */
  check(): Promise<void>;
  create(spec: SandboxSpec): Promise<Sandbox>;
}
