import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { posix } from "node:path";
import { InfraError, UserError } from "../../core/errors.js";
import { timerMs } from "../../core/timer.js";
import { copyTree, mapToHost, type PersistentBind, resolveHostPath, safeMapToHost } from "../host-paths.js";
import { lastLines } from "../image/docker-cli.js";
import { type RunningHandle, runProcess } from "../run-process.js";
import { chownTree } from "../sandbox-user.js";
import { parseExecOptions } from "../spec.js";
import type { ExecOptions, ExecResult, Sandbox, SandboxSpec } from "../types.js";
import { type ExecUser, type StageContext, stageExec } from "./exec-mounts.js";
import { type FreshRootContext, freshRootRun } from "./fresh-root.js";
import { collect, dockerBin, pipeOk } from "./proc.js";
import { envArgs } from "./run-args.js";
import { EXEC_MARKER, KILL_ALL, KILL_EXEC, WRAPPER, WRAPPER_NAME } from "./scripts.js";
import { TrashBin } from "./trash.js";

export interface DockerSandboxParts {
  id: string;
  spec: SandboxSpec;
  container: string;
  binds: PersistentBind[];
  user: ExecUser;
  /** The environment an exec as this user starts from (base, then the image's ENV). */
  envFor: (user: ExecUser) => Record<string, string>;
  scratch: string;
  pristine: (path: string) => Promise<Buffer | null>;
  /** Looks up another user of the image (ExecOptions.user), as `docker exec -u` would. */
  resolveUser: (user: string) => Promise<ExecUser>;
  /** The same in the image as it was built, for execs on a fresh copy of it. */
  imageUser: (user: string) => Promise<ExecUser>;
  /** What an exec on a fresh copy of the image is made from (null: docker cannot, see fresh-root.ts). */
  freshRoot: () => Promise<FreshRootContext | null>;
  /** Removes the container and what the provider holds on the host; safe to call twice. */
  release: () => Promise<void>;
}

/** Time the in-container killer gets to find an exec that has not shown up yet. */
const KILL_RETRIES = 15;
const KILL_RETRY_MS = 200;

/** One docker container per sandbox; each exec is a `docker exec` under a killable wrapper. */
export class DockerSandbox implements Sandbox {
  readonly id: string;
  readonly spec: SandboxSpec;
  readonly nestingAllowed: boolean;
  private readonly running = new Set<RunningHandle>();
  /** Users of execs that named their own (ExecOptions.user), by name: killAll signals as each. */
  private readonly otherUsers = new Map<string, ExecUser>();
  private readonly imageUsers = new Map<string, Promise<ExecUser>>();
  /** Containers of execs on a fresh copy of the image that are running (removed at close). */
  private readonly freshContainers = new Set<string>();
  private closed = false;
  private readonly trash = new TrashBin((user, script, args) => this.helper(user, script, args));

  constructor(private readonly parts: DockerSandboxParts) {
    this.id = parts.id;
    this.spec = parts.spec;
    this.nestingAllowed = parts.spec.nesting === true;
  }

  get containerName(): string {
    return this.parts.container;
  }

  async exec(command: string | string[], options?: ExecOptions): Promise<ExecResult> {
    this.assertOpen();
    const o = parseExecOptions(options);
    const argv = typeof command === "string" ? ["bash", "-lc", command] : command;
    if (argv.length === 0) throw new UserError("exec: empty command");
    if (o.nestedSandbox === true && !this.nestingAllowed) {
      throw new UserError(
        "this docker sandbox cannot let a command build sandboxes of its own: docker's seccomp " +
          "profile forbids user namespaces unless the sandbox is made for nesting (a task's " +
          "[requires] nested_sandbox = true)",
      );
    }
    if (o.imageRoot === true) {
      const fresh = await this.parts.freshRoot();
      if (fresh !== null) return this.execFresh(fresh, argv, o);
    }
    const user = o.user === undefined ? this.parts.user : await this.userFor(o.user);
    // A past exec's trash is emptied while this one's mounts are staged, unless one of them
    // would move a folder holding trash; either way it is gone before the command starts.
    const staged = [...o.mounts.map((m) => m.sandboxPath), ...o.freshDirs];
    if (this.trash.holdsUnder(staged)) await this.trash.empty();
    const emptied = this.trash.empty().then(
      () => null,
      (e: unknown) => ({ e }),
    );
    const restore = await stageExec(this.stageContext(user), o.mounts, o.freshDirs).catch(
      async (e: unknown) => {
        await emptied;
        throw this.quotaFull(e);
      },
    );
    const failed = await emptied;
    if (failed !== null) {
      await restore().catch(() => undefined);
      throw failed.e;
    }
    const execId = randomBytes(8).toString("hex");
    const args = [
      "exec",
      "-i",
      "-u",
      user.name,
      "-w",
      o.cwd ?? this.spec.workdir,
      ...envArgs({ ...this.parts.envFor(user), ...o.env, [EXEC_MARKER]: execId }),
      this.parts.container,
      "bash",
      "-c",
      WRAPPER,
      WRAPPER_NAME,
      ...argv,
    ];
    try {
      return await this.run(args, o, (done) => this.killExec(execId, user, done));
    } finally {
      await restore();
    }
  }

  /** An exec on a fresh copy of the image, in a container of its own (fresh-root.ts). */
  private async execFresh(
    ctx: FreshRootContext,
    argv: readonly string[],
    o: ReturnType<typeof parseExecOptions>,
  ): Promise<ExecResult> {
    const user = o.user === undefined ? this.parts.user : await this.imageUserFor(o.user);
    // Trash in the sandbox's root would show through /longhaul/agent-root.
    await this.trash.empty();
    const env = { ...this.parts.envFor(user), ...o.env };
    const run = await freshRootRun(
      ctx,
      { user, cwd: o.cwd ?? this.spec.workdir, env, mounts: o.mounts, freshDirs: o.freshDirs },
      argv,
    ).catch((e: unknown) => {
      throw this.quotaFull(e);
    });
    this.freshContainers.add(run.name);
    let ended = false;
    try {
      const r = await this.run(run.args, o, () => this.removeContainers([run.name]));
      // A number: the container's own exit, after which `--rm` has removed it.
      ended = r.exitCode !== null;
      return r;
    } finally {
      // Killed: `docker run` may have died while the daemon was still making the container, so
      // it is removed again now, and once more at close.
      if (ended) this.freshContainers.delete(run.name);
      else await this.removeContainers([run.name]);
      run.cleanup();
    }
  }

  /**
   * Per-exec mounts and fresh folders are made inside the sandbox's own folders, on its disk
   * quota: a quota the agent filled leaves no room. That must not abort the job (a plain Error
   * would), so it is an InfraError.
   */
  private quotaFull(e: unknown): unknown {
    const code = (e as NodeJS.ErrnoException | null)?.code;
    if (code === "ENOSPC" || code === "EDQUOT")
      return new InfraError(
        `sandbox ${this.id}: its disk quota is full, so this command's mounts cannot be staged (${code})`,
        { cause: e },
      );
    return e;
  }

  private async removeContainers(names: readonly string[]): Promise<void> {
    if (names.length > 0) await collect([dockerBin(), "rm", "-f", ...names]);
  }

  /** Runs `docker ARGS` as one exec; `killer` ends the exec's processes (`done`: it has ended). */
  private async run(
    args: readonly string[],
    o: ReturnType<typeof parseExecOptions>,
    killer: (done: () => boolean) => Promise<void>,
  ): Promise<ExecResult> {
    const controller = new AbortController();
    let why: "timeout" | "abort" | "kill" | null = null;
    let killing: Promise<void> | null = null;
    const kill = (reason: "timeout" | "abort" | "kill"): Promise<void> => {
      why ??= reason;
      killing ??= killer(() => finished).finally(() => controller.abort());
      return killing;
    };
    let finished = false;
    const timer =
      o.timeoutSec === undefined ? undefined : setTimeout(() => void kill("timeout"), timerMs(o.timeoutSec));
    const onAbort = (): void => void kill("abort");
    o.signal?.addEventListener("abort", onAbort, { once: true });
    if (o.signal?.aborted) void kill("abort");
    try {
      const r = await runProcess(
        {
          argv: [dockerBin(), ...args],
          env: hostEnv(),
          stdin: o.stdin,
          signal: controller.signal,
          maxOutputBytes: o.maxOutputBytes,
        },
        (h) => {
          const handle: RunningHandle = { kill: () => void kill("kill"), done: h.done };
          this.running.add(handle);
          return () => this.running.delete(handle);
        },
      );
      finished = true;
      if (r.spawnError !== null) {
        throw new InfraError(`could not run docker: ${r.spawnError.message}`, { cause: r.spawnError });
      }
      if (why === null && (r.exitCode === 125 || r.exitCode === 126 || r.exitCode === 127)) {
        // The client's own failures (container gone, exec refused) never reach the wrapper.
        if (/Error response from daemon|OCI runtime|is not running/.test(r.stderr)) {
          throw new InfraError(`sandbox ${this.id}: docker ${args[0]} failed: ${lastLines(r.stderr, 3)}`);
        }
      }
      const { started: _s, spawnError: _e, ...result } = r;
      await killing;
      if (why === null) return result;
      return { ...result, exitCode: null, signal: "SIGKILL", timedOut: why === "timeout" };
    } finally {
      finished = true;
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Kills one exec's session inside the container; retries while it has not shown up yet. */
  private async killExec(execId: string, user: ExecUser, done: () => boolean): Promise<void> {
    for (let i = 0; i < KILL_RETRIES && !done(); i++) {
      const r = await this.helperRaw(user.name, KILL_EXEC, [execId]);
      if (r.code === 0) return;
      if (r.code !== 3) return;
      await new Promise((res) => setTimeout(res, KILL_RETRY_MS));
    }
  }

  async spawnBackground(
    command: string[],
    options?: Omit<ExecOptions, "timeoutSec" | "stdin">,
  ): Promise<void> {
    this.assertOpen();
    const o = parseExecOptions(options);
    if (command.length === 0) throw new UserError("spawnBackground: empty command");
    if (o.mounts.length > 0 || o.freshDirs.length > 0) {
      throw new UserError("spawnBackground: mounts and fresh folders are for exec only");
    }
    await this.trash.empty();
    const r = await collect([
      dockerBin(),
      "exec",
      "-d",
      "-u",
      this.parts.user.name,
      "-w",
      o.cwd ?? this.spec.workdir,
      ...envArgs({ ...this.parts.envFor(this.parts.user), ...o.env }),
      this.parts.container,
      ...command,
    ]);
    if (r.code !== 0) {
      throw new InfraError(
        `background process ${command.join(" ")} did not start: ${lastLines(r.stderr, 3)}`,
      );
    }
  }

  async upload(hostPath: string, sandboxPath: string): Promise<void> {
    this.assertOpen();
    if (!existsSync(hostPath)) throw new UserError(`upload: ${hostPath} does not exist`);
    const p = posix.normalize(sandboxPath);
    if (mapToHost(this.parts.binds, p) !== null) {
      const to = resolveHostPath(this.parts.binds, p);
      await copyTree(hostPath, to);
      if (this.parts.user.uid !== 0) {
        chownTree(to, this.parts.user.uid, this.parts.user.gid);
      }
      return;
    }
    await this.helper("0", 'mkdir -p -- "$1"', [posix.dirname(p)]);
    const { uid, gid } = this.parts.user;
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
      [dockerBin(), "cp", "-", `${this.parts.container}:${posix.dirname(p)}`],
    );
  }

  async download(sandboxPath: string, hostPath: string): Promise<void> {
    this.assertOpen();
    const p = posix.normalize(sandboxPath);
    if (mapToHost(this.parts.binds, p) !== null) {
      const from = resolveHostPath(this.parts.binds, p);
      if (lstatSync(from, { throwIfNoEntry: false }) === undefined) {
        throw new UserError(`download: ${sandboxPath} does not exist in sandbox ${this.id}`);
      }
      await copyTree(from, hostPath);
      return;
    }
    await this.trash.empty();
    const staging = `${hostPath}.lh-download-${randomBytes(4).toString("hex")}`;
    mkdirSync(staging, { recursive: true });
    try {
      const probe = await this.helperRaw("0", 'test -e "$1" || test -L "$1"', [p]);
      if (probe.code !== 0)
        throw new UserError(`download: ${sandboxPath} does not exist in sandbox ${this.id}`);
      await pipeOk(
        `download of ${p}`,
        [dockerBin(), "cp", `${this.parts.container}:${p}`, "-"],
        ["tar", "-x", "--no-same-owner", "-C", staging, "-f", "-"],
      );
      await copyTree(posix.join(staging, posix.basename(p)), hostPath);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  hostPathOf(sandboxPath: string): string | null {
    return safeMapToHost(this.parts.binds, sandboxPath);
  }

  async killAll(): Promise<void> {
    const handles = [...this.running];
    for (const h of handles) h.kill();
    await Promise.all(handles.map((h) => h.done));
    // The exec user's processes first (root without capabilities cannot signal another uid),
    // then root's, which also checks that nothing but pid 1 and its sleep is left.
    const users = [this.parts.user, ...this.otherUsers.values()];
    for (const u of new Map(users.filter((x) => x.uid !== 0).map((x) => [x.uid, x])).values())
      await this.helperRaw(u.name, KILL_ALL, []);
    const r = await this.helperRaw("0", KILL_ALL, []);
    if (r.code !== 0) {
      throw new InfraError(
        `sandbox ${this.id}: processes survived killAll (${lastLines(r.stderr, 2) || r.code})`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.removeContainers([...this.freshContainers]);
    await this.parts.release();
  }

  private assertOpen(): void {
    if (this.closed) throw new UserError(`sandbox ${this.id} is closed`);
  }

  private async userFor(name: string): Promise<ExecUser> {
    const known = this.otherUsers.get(name);
    if (known !== undefined) return known;
    const user = await this.parts.resolveUser(name);
    this.otherUsers.set(name, user);
    return user;
  }

  private imageUserFor(name: string): Promise<ExecUser> {
    let user = this.imageUsers.get(name);
    if (user === undefined) {
      user = this.parts.imageUser(name);
      // A failed lookup (a user the image lacks) is not kept: the next exec asks again.
      user.catch(() => this.imageUsers.delete(name));
      this.imageUsers.set(name, user);
    }
    return user;
  }

  private stageContext(user: ExecUser): StageContext {
    return {
      deferCleanup: (owner, path) => this.trash.add(owner, path),
      container: this.parts.container,
      binds: this.parts.binds,
      scratch: this.parts.scratch,
      user,
      helper: (user, script, args) => this.helper(user, script, args),
      pristine: this.parts.pristine,
    };
  }

  private helperRaw(user: string, script: string, args: readonly string[]) {
    return collect(
      [
        dockerBin(),
        "exec",
        "-u",
        user,
        this.parts.container,
        "bash",
        "-c",
        script,
        "longhaul-helper",
        ...args,
      ],
      undefined,
      120,
    );
  }

  /** A short root (or other uid) command of the provider's own; InfraError when it fails. */
  async helper(user: string, script: string, args: readonly string[]): Promise<string> {
    const r = await this.helperRaw(user, script, args);
    if (r.code !== 0) {
      throw new InfraError(
        `sandbox ${this.id}: helper command failed: ${lastLines(r.stderr, 3) || `exit ${r.code}`}`,
      );
    }
    return r.stdout.toString("utf8");
  }
}

/** The docker client's own environment (DOCKER_HOST and the like), never the sandbox's. */
export function hostEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}
