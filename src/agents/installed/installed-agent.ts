import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, posix } from "node:path";
import { UserError } from "../../core/index.js";
import type { Mount } from "../../sandbox/types.js";
import type { Trajectory } from "../llm-loop/trajectory.js";
import type {
  Agent,
  AgentContext,
  AgentFactory,
  AgentRunResult,
  ModelEndpoint,
  SandboxMountsContext,
} from "../types.js";
import { agentCacheRoot, ensureInstalled } from "./cache.js";
import { FORWARDER_SCRIPT, PORT_PLACEHOLDER } from "./forwarder.js";
import { gatewayTrajectory } from "./gateway-record.js";
import type { InstalledAgentDef, StartContext } from "./types.js";

/** Where the pieces are bound inside the sandbox (read-only: for its life, else for the agent's exec). */
export const SANDBOX_PATHS = {
  install: "/longhaul/agent",
  node: "/longhaul/node/bin/node",
  gateway: "/longhaul/gateway",
} as const;

/** Agent stdout kept (its JSON result can be long); the rest is cut. */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** An Agent factory for an installed agent definition (what the registry and plugins take). */
export function installedAgentFactory(def: InstalledAgentDef): AgentFactory {
  return (options) => new InstalledAgent(def, options);
}

/** Runs an installed agent in the trial's sandbox, its model calls going to the model endpoint. */
export class InstalledAgent implements Agent {
  readonly name: string;

  constructor(
    readonly def: InstalledAgentDef,
    private readonly options: Record<string, string>,
  ) {
    this.name = def.name;
  }

  /** The install, Node and the gateway's folder, bound for the sandbox's life (docker needs that). */
  async sandboxMounts(ctx: SandboxMountsContext): Promise<Mount[]> {
    if (ctx.modelEndpoint === undefined) return [];
    const installDir = await ensureInstalled(
      this.def,
      this.options.cache_dir ?? agentCacheRoot(),
      ctx.log,
      ctx.signal,
    );
    return agentMounts(installDir, ctx.modelEndpoint);
  }

  async run(ctx: AgentContext): Promise<AgentRunResult> {
    const endpoint = ctx.modelEndpoint;
    if (endpoint === undefined) {
      throw new UserError(
        `agent ${this.name} reaches its model only through the model gateway, and this run started none`,
      );
    }
    const installDir = await ensureInstalled(
      this.def,
      this.options.cache_dir ?? agentCacheRoot(),
      ctx.log,
      ctx.signal,
    );
    const home = `/logs/agent/${this.name}`;
    const start: StartContext = {
      instruction: ctx.instruction,
      model: endpoint.model,
      provider: endpoint.provider,
      baseUrl: `http://127.0.0.1:${PORT_PLACEHOLDER}`,
      token: endpoint.token,
      home,
      workdir: ctx.sandbox.spec.workdir,
      installDir: SANDBOX_PATHS.install,
      node: SANDBOX_PATHS.node,
      options: { ...this.options, ...ctx.options },
    };
    await this.writeHome(ctx, start);
    const bin = posix.join(SANDBOX_PATHS.install, this.def.bin);
    const agentArgv = this.def.node ? [SANDBOX_PATHS.node, bin] : [bin];
    const argv = [
      SANDBOX_PATHS.node,
      "-e",
      FORWARDER_SCRIPT,
      posix.join(SANDBOX_PATHS.gateway, basename(endpoint.socketPath)),
      ...agentArgv,
      ...this.def.args(start),
    ];
    ctx.log(`${this.name}: starting (${installDir})`);
    const res = await ctx.sandbox.exec(argv, {
      cwd: start.workdir,
      env: { ...this.def.env(start), LONGHAUL_AGENT_HOME: home },
      mounts: missingMounts(agentMounts(installDir, endpoint), ctx.sandbox.spec.mounts ?? []),
      timeoutSec: ctx.timeoutSec,
      signal: ctx.signal,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
    writeFileSync(join(ctx.logDir, `${this.name}.stdout.txt`), res.stdout);
    writeFileSync(join(ctx.logDir, `${this.name}.stderr.txt`), res.stderr);
    const out = { exitCode: res.exitCode, stdout: res.stdout, stderr: res.stderr, timedOut: res.timedOut };
    const result = ctx.signal.aborted || res.timedOut ? { selfTerminated: false } : this.def.result(out);
    await this.writeTrajectory(ctx, home, endpoint).catch((e: unknown) =>
      ctx.log(`${this.name}: no trajectory: ${(e as Error).message}`),
    );
    return result;
  }

  /** The agent's home with its config files, made fresh (it lives under /logs/agent, collected later). */
  private async writeHome(ctx: AgentContext, start: StartContext): Promise<void> {
    const local = mkdtempSync(join(tmpdir(), "longhaul-agent-home-"));
    try {
      for (const f of this.def.files?.(start) ?? []) {
        const p = join(local, f.path);
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, f.content);
      }
      await ctx.sandbox.upload(local, start.home);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  }

  /** ATIF from the agent's own session logs, else from the gateway's record of its calls. */
  private async writeTrajectory(ctx: AgentContext, home: string, endpoint: ModelEndpoint): Promise<void> {
    const meta = {
      agentName: this.name,
      version: this.def.install.kind === "npm" ? this.def.install.version : this.def.install.key,
      modelId: `${endpoint.provider}:${endpoint.model}`,
    };
    let trajectory: Trajectory | null = null;
    if (this.def.trajectory !== undefined) {
      const local = mkdtempSync(join(tmpdir(), "longhaul-agent-logs-"));
      try {
        await ctx.sandbox.download(home, join(local, "home"));
        trajectory = this.def.trajectory(join(local, "home"), meta);
      } catch (e) {
        // An agent that crashed early may have left no logs: the gateway's record still tells.
        ctx.log(`${this.name}: its session logs could not be read: ${(e as Error).message}`);
      } finally {
        rmSync(local, { recursive: true, force: true });
      }
    }
    trajectory ??= gatewayTrajectory(ctx.logDir, meta);
    if (trajectory !== null) {
      writeFileSync(join(ctx.logDir, "trajectory.json"), `${JSON.stringify(trajectory, null, 2)}\n`);
    }
  }
}

/** The install, the host's Node and the endpoint's socket folder, read-only for this exec. */
export function agentMounts(installDir: string, endpoint: ModelEndpoint): Mount[] {
  return [
    { hostPath: installDir, sandboxPath: SANDBOX_PATHS.install, readonly: true },
    // The Node running longhaul runs the forwarder (and JavaScript agents) too, so the task's
    // environment needs no Node of its own. A bind of the binary itself: it needs only the
    // C and C++ runtime libraries, which any glibc image has.
    { hostPath: realpathSync(process.execPath), sandboxPath: SANDBOX_PATHS.node, readonly: true },
    // A unix socket accepts connections through a read-only bind.
    { hostPath: dirname(endpoint.socketPath), sandboxPath: SANDBOX_PATHS.gateway, readonly: true },
  ];
}

/** The binds a sandbox made with `present` for its life does not already have (same source, path and mode). */
export function missingMounts(wanted: readonly Mount[], present: readonly Mount[]): Mount[] {
  return wanted.filter(
    (w) =>
      !present.some(
        (p) => p.sandboxPath === w.sandboxPath && p.hostPath === w.hostPath && p.readonly === w.readonly,
      ),
  );
}
