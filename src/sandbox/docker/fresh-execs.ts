import type { ExecResult, SandboxSpec } from "../types.js";
import type { ExecUser } from "./exec-mounts.js";
import { type ExecKiller, type ParsedExecOptions, quotaFull } from "./exec-run.js";
import { type FreshRootContext, freshRootRun } from "./fresh-root.js";
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
 * A sandbox's execs on a fresh copy of the image (ExecOptions.imageRoot), each in a container of
 * its own (fresh-root.ts), and the containers of those that still run, removed at close.
 */
export class FreshExecs {
  /** Containers of execs that are running (removed at close). */
  private readonly containers = new Set<string>();
  private readonly imageUsers = new Map<string, Promise<ExecUser>>();

  constructor(private readonly parts: FreshExecsParts) {}

  async exec(ctx: FreshRootContext, argv: readonly string[], o: ParsedExecOptions): Promise<ExecResult> {
    const user = o.user === undefined ? this.parts.user : await this.imageUserFor(o.user);
    // Trash in the sandbox's root would show through /longhaul/agent-root.
    await this.parts.emptyTrash();
    const env = { ...this.parts.envFor(user), ...o.env };
    const run = await freshRootRun(
      ctx,
      { user, cwd: o.cwd ?? this.parts.spec.workdir, env, mounts: o.mounts, freshDirs: o.freshDirs },
      argv,
    ).catch((e: unknown) => {
      throw quotaFull(this.parts.id, e);
    });
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

  /** Removes every container this sandbox's fresh execs made that may still be there. */
  async removeAll(): Promise<void> {
    await removeContainers([...this.containers]);
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
