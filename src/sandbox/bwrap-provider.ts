import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { InfraError, UserError } from "../core/errors.js";
import { BwrapSandbox } from "./bwrap-sandbox.js";
import { CgroupV1, cgroupName } from "./cgroup.js";
import { copyTree, type PersistentBind } from "./host-paths.js";
import { runProcess } from "./run-process.js";
import { baseEnv, parseSandboxSpec } from "./spec.js";
import type { Sandbox, SandboxProvider, SandboxSpec } from "./types.js";

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
  /** Where cgroup v1 hierarchies are mounted (default /sys/fs/cgroup). */
  cgroupRoot?: string;
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
    const r = await runProcess(
      {
        argv: [bwrap, "--dev-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--", "true"],
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
    const dirs = {
      app: join(spec.stateDir, "app"),
      logs: join(spec.stateDir, "logs"),
      tmp: join(spec.stateDir, "tmp"),
      home: join(spec.stateDir, "home"),
    };
    try {
      for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
      await mkdir(join(dirs.logs, "agent"));
      await mkdir(join(dirs.logs, "verifier"));
      await chmod(dirs.tmp, 0o1777);
      if (spec.environmentDir !== null) await copyTree(spec.environmentDir, dirs.app);
    } catch (e) {
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
    const limits = await this.limitsFor(id, spec);
    return new BwrapSandbox({ id, spec, bwrapPath, binds, ...limits });
  }

  private async limitsFor(
    id: string,
    spec: SandboxSpec,
  ): Promise<{ cgroup: CgroupV1 | null; wrap: (argv: string[]) => string[] }> {
    const mode = this.options.limits ?? "auto";
    let reason = "rlimit mode was chosen";
    if (mode !== "rlimit") {
      const made = await CgroupV1.create(cgroupName(id), spec, this.options.cgroupRoot);
      if (typeof made !== "string") return { cgroup: made, wrap: (argv) => made.wrap(argv) };
      if (mode === "cgroup") throw new UserError(`sandbox limits need cgroups: ${made}`);
      reason = made;
    }
    const prlimit = searchPath("prlimit").find(isExecutableFile);
    const warn = this.options.onWarning ?? warnOnceOnStderr;
    if (prlimit === undefined) {
      warn(`sandbox memory and process limits are NOT enforced (${reason}; prlimit not found)`);
      return { cgroup: null, wrap: (argv) => argv };
    }
    if (mode !== "rlimit") {
      warn(
        `sandbox limits fall back to rlimits (${reason}): memory is capped per process, not per sandbox, ` +
          "and the process cap does not apply to root; see docs/sandbox.md",
      );
    }
    const bytes = spec.memoryMb * 1024 * 1024;
    return {
      cgroup: null,
      wrap: (argv) => [prlimit, `--nproc=${spec.pidsMax}`, `--data=${bytes}`, "--", ...argv],
    };
  }
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
