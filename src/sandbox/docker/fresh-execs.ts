import { InfraError } from "../../core/errors.js";
import { lastLines } from "../image/docker-cli.js";
import type { ExecResult, SandboxSpec } from "../types.js";
import type { ExecUser } from "./exec-mounts.js";
import { type ExecKiller, type ParsedExecOptions, quotaFull } from "./exec-run.js";
import { type FreshRootContext, type FreshRootRun, freshRootRun } from "./fresh-root.js";
import { collect, dockerBin } from "./proc.js";

export interface FreshExecsParts {
  id: string;
  spec: SandboxSpec;
  /** The sandbox's exec user, for execs that name none. */
  user: ExecUser;
  envFor: (user: ExecUser) => Record<string, string>;
  /** Looks up a user in the image as it was built (the sandbox's own may have been edited). */
  imageUser: (user: string) => Promise<ExecUser>;
  /** Empties the sandbox's trash, which would show through AGENT_ROOT_DIR. */
  emptyTrash: () => Promise<void>;
  /** Runs `docker ARGS` as one of the sandbox's execs (exec-run.ts). */
  run: (args: readonly string[], o: ParsedExecOptions, killer: ExecKiller) => Promise<ExecResult>;
}

/**
 * A sandbox's execs and background processes on a fresh copy of the image
 * (ExecOptions.imageRoot), each in a container of its own (fresh-root.ts), and the containers of
 * those that still run: a background process's until killAll, all of them at close.
 */
export class FreshExecs {
  /** Containers of execs that are running (removed at close). */
  private readonly containers = new Set<string>();
  /** Containers of background processes, each with what to remove on the host once it is gone. */
  private readonly background = new Map<string, () => void>();
  private readonly imageUsers = new Map<string, Promise<ExecUser>>();

  constructor(private readonly parts: FreshExecsParts) {}

  async exec(ctx: FreshRootContext, argv: readonly string[], o: ParsedExecOptions): Promise<ExecResult> {
    const run = await this.prepare(ctx, argv, o, false);
    this.containers.add(run.name);
    let ended = false;
    try {
      const r = await this.parts.run(run.args, o, () => removeContainers([run.name]));
      // A number: the container's own exit, after which `--rm` has removed it.
      ended = r.exitCode !== null;
      return r;
    } finally {
      // Killed: `docker run` may have died while the daemon was still making the container, so
      // it is removed again now, and once more at close.
      if (ended) this.containers.delete(run.name);
      else await removeContainers([run.name]);
      run.cleanup();
    }
  }

  /**
   * A background process (spawnBackground) in a detached container of its own, under the same
   * mounts and limits as an exec's: it lives until it ends (`--rm` removes it), killAll, close or
   * stopBackground. Returns the container's name.
   */
  async spawn(ctx: FreshRootContext, argv: readonly string[], o: ParsedExecOptions): Promise<string> {
    const run = await this.prepare(ctx, argv, o, true);
    // Known before docker makes it, so a killAll meanwhile removes it too (or close, after).
    this.background.set(run.name, run.cleanup);
    const r = await collect([dockerBin(), ...run.args]);
    if (r.code !== 0) {
      await this.removeBackground([run.name]).catch(() => undefined);
      throw new InfraError(`background process ${argv.join(" ")} did not start: ${lastLines(r.stderr, 3)}`);
    }
    return run.name;
  }

  /** Ends one background process (its abort signal): removes its container, if still known. */
  async stopBackground(name: string): Promise<void> {
    if (this.background.has(name)) await this.removeBackground([name]);
  }

  /** Ends every background process on a fresh copy of the image (killAll): removes their containers. */
  async killBackground(): Promise<void> {
    await this.removeBackground([...this.background.keys()]);
  }

  /**
   * Removes every container this sandbox's fresh execs made that may still be there (close). One
   * docker would not remove is left to the sweep once this process is gone (sweep.ts), so the
   * sandbox's own container and folders are still released.
   */
  async removeAll(): Promise<void> {
    await removeContainers([...this.containers]);
    await this.killBackground().catch(() => undefined);
  }

  private async prepare(
    ctx: FreshRootContext,
    argv: readonly string[],
    o: ParsedExecOptions,
    detach: boolean,
  ): Promise<FreshRootRun> {
    const user = o.user === undefined ? this.parts.user : await this.imageUserFor(o.user);
    // Trash in the sandbox's root would show through /longhaul/agent-root.
    await this.parts.emptyTrash();
    const env = { ...this.parts.envFor(user), ...o.env };
    return freshRootRun(
      ctx,
      { user, cwd: o.cwd ?? this.parts.spec.workdir, env, mounts: o.mounts, freshDirs: o.freshDirs },
      argv,
      detach,
    ).catch((e: unknown) => {
      throw quotaFull(this.parts.id, e);
    });
  }

  private async removeBackground(names: readonly string[]): Promise<void> {
    if (names.length === 0) return;
    const r = await collect([dockerBin(), "rm", "-f", ...names]);
    // One that ended by itself is gone already (`--rm`): not a failure.
    const failed = r.stderr.split("\n").filter((l) => l.trim() !== "" && !/No such container/.test(l));
    // Kept when docker failed, so the next killAll or close tries again.
    if (r.code !== 0 && failed.length > 0)
      throw new InfraError(
        `sandbox ${this.parts.id}: background containers survived: ${failed.slice(-3).join("; ")}`,
      );
    for (const name of names) {
      this.background.get(name)?.();
      this.background.delete(name);
    }
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
}

async function removeContainers(names: readonly string[]): Promise<void> {
  if (names.length > 0) await collect([dockerBin(), "rm", "-f", ...names]);
}
