import { randomBytes } from "node:crypto";
import { InfraError, UserError } from "../../core/errors.js";
import { type PersistentBind, safeMapToHost } from "../host-paths.js";
import { lastLines } from "../image/docker-cli.js";
import type { RunningHandle } from "../run-process.js";
import { parseExecOptions } from "../spec.js";
import type { ExecOptions, ExecResult, Sandbox, SandboxSpec } from "../types.js";
import { AbortWatch, abortedBeforeStart, assertNesting } from "./background.js";
import { type ExecUser, type StageContext, stageExec } from "./exec-mounts.js";
import { type ExecKiller, type ParsedExecOptions, quotaFull, runDockerExec } from "./exec-run.js";
import { FreshExecs } from "./fresh-execs.js";
import type { FreshRootContext } from "./fresh-root.js";
import { collect, dockerBin } from "./proc.js";
import { wrappedExecArgs } from "./run-args.js";
import { HOLD_MARKER, HOLD_RELEASE, KILL_ALL, KILL_EXEC } from "./scripts.js";
import { endSurvivors, type FactsOf } from "./survivors.js";
import { downloadFrom, type TransferContext, uploadTo } from "./transfer.js";
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
  /** The container's id and init pid from the daemon, asked once (container-facts.ts). */
  facts: FactsOf;
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
  private closed = false;
  private readonly trash = new TrashBin((user, script, args) => this.helper(user, script, args));
  private readonly fresh: FreshExecs;
  /** Background processes that their abort signal may still end. */
  private readonly aborts = new AbortWatch();

  constructor(private readonly parts: DockerSandboxParts) {
    this.id = parts.id;
    this.spec = parts.spec;
    this.nestingAllowed = parts.spec.nesting === true;
    this.fresh = new FreshExecs({
      id: parts.id,
      spec: parts.spec,
      user: parts.user,
      envFor: parts.envFor,
      imageUser: parts.imageUser,
      emptyTrash: () => this.trash.empty(),
      run: (args, o, killer) => this.run(args, o, killer),
    });
  }

  get containerName(): string {
    return this.parts.container;
  }

  async exec(command: string | string[], options?: ExecOptions): Promise<ExecResult> {
    this.assertOpen();
    const o = parseExecOptions(options);
    const argv = typeof command === "string" ? ["bash", "-lc", command] : command;
    if (argv.length === 0) throw new UserError("exec: empty command");
    assertNesting(o, this.nestingAllowed);
    if (o.imageRoot === true) {
      const fresh = await this.parts.freshRoot();
      if (fresh !== null) return this.fresh.exec(fresh, argv, o);
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
        throw quotaFull(this.id, e);
      },
    );
    const failed = await emptied;
    if (failed !== null) {
      await restore().catch(() => undefined);
      throw failed.e;
    }
    const execId = randomBytes(8).toString("hex");
    const args = wrappedExecArgs({
      mode: "-i",
      container: this.parts.container,
      user: user.name,
      cwd: o.cwd ?? this.spec.workdir,
      env: { ...this.parts.envFor(user), ...o.env },
      execId,
      argv,
    });
    try {
      return await this.run(args, o, (done) => this.killExec(execId, user, done));
    } finally {
      await restore();
    }
  }

  /** Runs `docker ARGS` as one exec of this sandbox (exec-run.ts). */
  private run(args: readonly string[], o: ParsedExecOptions, killer: ExecKiller): Promise<ExecResult> {
    return runDockerExec({ id: this.id, running: this.running }, args, o, killer);
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

  /**
   * A `docker exec -d` of the command under the exec wrapper, so that, as a bwrap background
   * process's pid namespace does, what it leaves in its session dies with it, and its abort signal
   * finds it by its marker and its audit session (scripts.ts), as an exec's timeout does. With `nestedSandbox` it is refused as an
   * exec is where the sandbox was not made for nesting; where it was, every command may nest.
   */
  async spawnBackground(
    command: string[],
    options?: Omit<ExecOptions, "timeoutSec" | "stdin">,
  ): Promise<void> {
    this.assertOpen();
    const o = parseExecOptions(options);
    if (command.length === 0) throw new UserError("spawnBackground: empty command");
    assertNesting(o, this.nestingAllowed);
    if (o.mounts.length > 0 || o.freshDirs.length > 0) {
      throw new UserError("spawnBackground: mounts and fresh folders are for exec only");
    }
    if (o.signal?.aborted) throw abortedBeforeStart(command);
    // On a fresh copy of the image as an exec would be, in a detached container of its own.
    if (o.imageRoot === true) {
      const fresh = await this.parts.freshRoot();
      if (fresh !== null) {
        const name = await this.fresh.spawn(fresh, command, o);
        return this.aborts.watch(o.signal, command, () => this.fresh.stopBackground(name));
      }
    }
    // Known to killAll as an exec's user is, so it can signal the process.
    const user = o.user === undefined ? this.parts.user : await this.userFor(o.user);
    await this.trash.empty();
    const execId = randomBytes(8).toString("hex");
    // Watched by a signal: held until its audit session is known (HOLD_RELEASE in scripts.ts).
    const hold = o.signal !== undefined;
    const args = wrappedExecArgs({
      mode: "-d",
      container: this.parts.container,
      user: user.name,
      cwd: o.cwd ?? this.spec.workdir,
      env: { ...this.parts.envFor(user), ...o.env, ...(hold ? { [HOLD_MARKER]: "1" } : {}) },
      execId,
      argv: command,
    });
    const r = await collect([dockerBin(), ...args]);
    if (r.code !== 0) {
      throw new InfraError(
        `background process ${command.join(" ")} did not start: ${lastLines(r.stderr, 3)}`,
      );
    }
    if (!hold) return;
    const released = await this.helperRaw(user.name, HOLD_RELEASE, [execId]);
    if (released.code !== 0) {
      await this.helperRaw(user.name, KILL_EXEC, [execId]).catch(() => undefined);
      throw new InfraError(
        `background process ${command.join(" ")} did not start: its wrapper never got ready ` +
          `(${lastLines(released.stderr, 2) || `exit ${released.code}`})`,
      );
    }
    // Empty where the kernel or docker gives no audit session: only the Unix session is found then.
    const audit = released.stdout.toString("utf8").trim();
    await this.aborts.watch(o.signal, command, async () => {
      if (!this.closed) await this.helperRaw(user.name, KILL_EXEC, [execId, audit]);
    });
  }

  async upload(hostPath: string, sandboxPath: string): Promise<void> {
    this.assertOpen();
    await uploadTo(this.transferContext(), hostPath, sandboxPath);
  }

  async download(sandboxPath: string, hostPath: string): Promise<void> {
    this.assertOpen();
    await downloadFrom(this.transferContext(), sandboxPath, hostPath);
  }

  hostPathOf(sandboxPath: string): string | null {
    return safeMapToHost(this.parts.binds, sandboxPath);
  }

  async killAll(): Promise<void> {
    const handles = [...this.running];
    for (const h of handles) h.kill();
    // Background processes on a fresh copy of the image: their containers go, beside the rest.
    const background = this.fresh.killBackground().then(
      () => null,
      (e: unknown) => ({ e }),
    );
    await Promise.all(handles.map((h) => h.done));
    // Every background process dies below: their signals have nothing left to end.
    this.aborts.clear();
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
    // Checked by the daemon, which a replaced bash in the container cannot fool (survivors.ts).
    const left = await endSurvivors(this.parts.container, this.parts.facts);
    if (left.length > 0) {
      throw new InfraError(
        `sandbox ${this.id}: processes survived killAll: ${left
          .map((p) => p.args)
          .join("; ")
          .slice(0, 300)}`,
      );
    }
    const failed = await background;
    if (failed !== null) throw failed.e;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.aborts.clear();
    await this.fresh.removeAll();
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

  private transferContext(): TransferContext {
    return {
      id: this.id,
      container: this.parts.container,
      binds: this.parts.binds,
      user: this.parts.user,
      helper: (user, script, args) => this.helper(user, script, args),
      helperRaw: (user, script, args) => this.helperRaw(user, script, args),
      emptyTrash: () => this.trash.empty(),
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
